// The state a test read ended with, and the state message that starts a read from a stream state: the
// two ends of "continue from the final state" (the CLI's incremental check and the editor's Continue).
import type { StreamRead } from '../testRead/streamRead';

type Obj = Record<string, unknown>;

/**
 * The stream_state of the last slice's state message (the final state, §6.1), else the latest state an
 * earlier slice shows (a last slice that failed before its first request is not shown); null for none.
 */
export function finalStateOf(read: StreamRead): Obj | null {
  for (let i = read.slices.length - 1; i >= 0; i--) {
    const message = read.slices[i].state[read.slices[i].state.length - 1] as { stream?: { stream_state?: unknown } } | undefined;
    const state = message?.stream?.stream_state;
    if (state && typeof state === 'object' && !Array.isArray(state)) return state as Obj;
  }
  return null;
}

/** The Builder's input state entry for stream `name` (an AirbyteStateMessage of type STREAM). */
export function stateMessageFor(name: string, state: Obj): object {
  return { type: 'STREAM', stream: { stream_descriptor: { name }, stream_state: state } };
}
