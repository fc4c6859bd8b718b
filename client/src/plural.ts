// Counts with their noun in the right number ("1 record", "2 records"), for every message and view.
// No vscode import: the webview scripts use it too.

/** `n` and the noun, singular for exactly 1; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
