// One feature case on disk (test/fixtures/features/<feature>/<name>.case): sections that each start
// with a line `=== <name>`. `case` is YAML (feature, title, the request, known-failing); `manifest`
// is the document with `$0` at the cursor; every other section is an expected result, compared as
// text. A section's content is everything up to the next header, byte for byte, so a document's
// trailing newline is part of what is compared.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

export const CURSOR = '$0';

export type CaseHeader = {
  feature: 'completion' | 'hover' | 'diagnostics' | 'quickfix' | 'refactor' | 'rename' | 'definition' | 'references';
  /** What the case shows, in a sentence; defaults to the file name. */
  title?: string;
  /** The manifest without its last line break (a section's content always ends with one otherwise). */
  'no-final-newline'?: boolean;
  /** A known bug: the driver runs the case and reports it as TODO instead of failing the suite. */
  'known-failing'?: string;
  [key: string]: unknown;
};

export type CaseFile = {
  path: string;
  header: CaseHeader;
  /** The manifest without the cursor marker, and the marker's offset (-1 when there is none). */
  text: string;
  cursor: number;
  /** Expected sections in file order, by name. */
  expected: Map<string, string>;
  /** All sections in file order (for rewriting). */
  sections: Array<{ name: string; content: string }>;
};

const HEADER = /^=== ([a-z][a-z -]*[a-z])[ \t]*$/;

export function readCase(path: string): CaseFile {
  const raw = readFileSync(path, 'utf8');
  const sections: Array<{ name: string; content: string }> = [];
  let current: { name: string; lines: string[] } | null = null;
  const lines = raw.split('\n');
  // A file ending with a newline splits into a last empty string: it belongs to the last section.
  for (let i = 0; i < lines.length; i++) {
    const m = HEADER.exec(lines[i]);
    if (m) {
      if (current) sections.push({ name: current.name, content: current.lines.join('\n') });
      current = { name: m[1], lines: [] };
    } else if (current) current.lines.push(lines[i]);
    else if (lines[i].trim() !== '') throw new Error(`${path}:${i + 1}: text before the first "=== <section>" line`);
  }
  if (current) sections.push({ name: current.name, content: current.lines.join('\n') });
  // Every section but the last ends where the next header starts; give it back its own line break.
  for (let i = 0; i < sections.length - 1; i++) sections[i].content += '\n';
  const byName = new Map<string, string>();
  for (const s of sections) {
    if (byName.has(s.name)) throw new Error(`${path}: section "${s.name}" appears twice`);
    byName.set(s.name, s.content);
  }
  const headerText = byName.get('case');
  if (headerText === undefined) throw new Error(`${path}: no "=== case" section`);
  let header: CaseHeader;
  try {
    header = parse(headerText) as CaseHeader;
  } catch (err) {
    throw new Error(`${path}: the case section is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!header || typeof header.feature !== 'string') throw new Error(`${path}: the case section needs "feature:"`);
  const written = byName.get('manifest');
  if (written === undefined) throw new Error(`${path}: no "=== manifest" section`);
  const manifest = header['no-final-newline'] === true ? written.replace(/\n$/, '') : written;
  const cursor = manifest.indexOf(CURSOR);
  if (cursor >= 0 && manifest.indexOf(CURSOR, cursor + 1) >= 0) throw new Error(`${path}: more than one ${CURSOR} in the manifest`);
  const text = cursor >= 0 ? manifest.slice(0, cursor) + manifest.slice(cursor + CURSOR.length) : manifest;
  const expected = new Map([...byName].filter(([name]) => name !== 'case' && name !== 'manifest'));
  return { path, header, text, cursor, expected, sections };
}

/** Rewrites the expected sections that `actual` has (UPDATE_EXPECT=1); the others stay as written. */
export function writeCase(file: CaseFile, actual: Map<string, string>): void {
  const out = file.sections.map((s, i) => {
    const content = actual.has(s.name) ? actual.get(s.name)! : s.content;
    const last = i === file.sections.length - 1;
    return `=== ${s.name}\n${last || content.endsWith('\n') ? content : content + '\n'}`;
  });
  writeFileSync(file.path, out.join(''));
}
