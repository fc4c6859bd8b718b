// The results view's incremental buttons: "Run from state…" (the input-state form) and "Continue from
// final state" — shown only when the read ended with a cursor state (not for a stream without
// incremental_sync, whose final state is {"__ab_no_cursor_state_message": true}).
import { el } from './dom';

type Post = (m: { type: 'runFromState' | 'continueFromState' }) => void;

/** The final stream state of the slices as the page holds them; null when none. */
export function finalStreamState(slices: Array<{ state?: unknown }>): Record<string, unknown> | null {
  for (let i = slices.length - 1; i >= 0; i--) {
    const list = Array.isArray(slices[i].state) ? (slices[i].state as unknown[]) : [];
    const s = (list[list.length - 1] as { stream?: { stream_state?: unknown } } | undefined)?.stream?.stream_state;
    if (s && typeof s === 'object' && !Array.isArray(s)) return s as Record<string, unknown>;
  }
  return null;
}

/** The two buttons, or none when the read has no cursor state to start from. */
export function stateButtons(running: boolean, slices: Array<{ state?: unknown }>, post: Post): HTMLElement[] {
  const final = finalStreamState(slices);
  if (running || !final || final.__ab_no_cursor_state_message === true) return [];
  return [
    el(
      'button',
      {
        id: 'run-from-state',
        class: 'secondary',
        title: 'Set the input state of this stream and read from it',
        onclick: () => post({ type: 'runFromState' }),
      },
      'Run from state…',
    ),
    el(
      'button',
      {
        id: 'continue-from-state',
        class: 'secondary',
        title: `Read again from ${JSON.stringify(final)}`,
        onclick: () => post({ type: 'continueFromState' }),
      },
      'Continue from final state',
    ),
  ];
}
