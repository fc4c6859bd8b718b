// Text the CLI prints for a person reads partly from the API and from other people's manifests
// (error bodies, URLs, keys, log messages). Written raw, an escape sequence in it would drive the
// terminal: recolour or hide lines, retitle the window, plant hyperlinks. Pretty output goes through
// `terminalSafe`, which shows every control character as a visible escape instead.

// C0 controls except tab and newline, DEL, C1 controls, and the bidirectional overrides that reorder
// what a line appears to say.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every terminal control character replaced by its `\xNN` / `\uNNNN` spelling. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
