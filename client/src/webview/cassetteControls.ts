// The cassette controls of the results view (docs/cassettes.md, "In the editor"): the header buttons
// "Save as cassette" and "Compare with previous read", and the banner that marks a read replayed from a
// cassette. Kept apart from results.ts so the results view only places them.
import { el } from './dom';

type Post = (message: { type: 'saveCassette' } | { type: 'compare' }) => void;

/** Header buttons; a replay has no cassette of its own to save (the cassette it came from is the file). */
export function cassetteButtons(running: boolean, replayedFrom: string | null, post: Post): HTMLElement[] {
  const disabled = running ? '' : null;
  const buttons: HTMLElement[] = [];
  if (!replayedFrom) {
    buttons.push(
      el(
        'button',
        {
          id: 'save-cassette',
          class: 'secondary',
          disabled,
          title: 'Write every HTTP exchange of this read, secrets masked, to a cassette file for offline replay and regression tests',
          onclick: () => post({ type: 'saveCassette' }),
        },
        'Save as cassette…',
      ),
    );
  }
  buttons.push(
    el(
      'button',
      {
        id: 'compare-reads',
        class: 'secondary',
        disabled,
        title: 'Records (by primary key) and inferred schema of this read against the read before it',
        onclick: () => post({ type: 'compare' }),
      },
      'Compare with previous read',
    ),
  );
  return buttons;
}

/** "Replayed from FILE": the read made no request; everything shown comes from the cassette. */
export function replayBanner(replayedFrom: string | null): HTMLElement | null {
  if (!replayedFrom) return null;
  return el(
    'div',
    { class: 'banner info', role: 'status', id: 'replayed-from' },
    el('strong', {}, 'Replayed from '),
    el('code', {}, replayedFrom),
    ' — offline: every response comes from the cassette (secrets in it are masked as ****).',
  );
}
