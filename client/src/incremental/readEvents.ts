// Where Run stream announces each finished read, and how it started (no state, an input state, or the
// previous read's final state), so the incremental lab can keep the chain without Run stream knowing it.
import type { ShownStreamRead } from '../../../server/src/protocol';
import type { StreamTarget } from '../services';

/** How a read started; `inputState` is the stream state it was given (null: none). */
export type ReadOrigin = { from: 'none' | 'input' | 'previous'; inputState: Record<string, unknown> | null };

type Listener = (target: StreamTarget, read: ShownStreamRead, origin: ReadOrigin) => void | Promise<void>;

let listener: Listener | null = null;

/** Sets the one listener (the lab's); disposing removes it. */
export function setStreamReadListener(l: Listener): { dispose(): void } {
  listener = l;
  return {
    dispose: () => {
      if (listener === l) listener = null;
    },
  };
}

/** Announces a finished read; a failing listener never affects the read. */
export function announceStreamRead(
  target: StreamTarget,
  read: ShownStreamRead,
  origin: ReadOrigin = { from: 'none', inputState: null },
): void {
  try {
    void Promise.resolve(listener?.(target, read, origin)).catch(() => undefined);
  } catch {
    // The read is shown either way.
  }
}
