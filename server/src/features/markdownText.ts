// Text from an API or a manifest placed into hover and completion markdown: as a code span that no
// backtick run inside can close, or as plain text whose markdown and HTML characters are escaped, so
// an API value cannot render an image, a link or a heading in the editor.

/** `text` as one inline code span: the fence is longer than any backtick run inside, line breaks become spaces. */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space on each side when both are there: keeps a value that starts or ends with a backtick whole.
  const pad = longest > 0 || flat.startsWith(' ') || flat.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** `text` as plain markdown text: every ASCII punctuation that markdown reads is backslash-escaped, `<` and `&` too. */
export function markdownText(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|~<>&"']/g, (c) => (c === '<' ? '&lt;' : c === '&' ? '&amp;' : `\\${c}`));
}
