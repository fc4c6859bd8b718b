// Random edits shaped like an author's, and the check that the language server's incremental
// analysis after each one equals a from-scratch analysis of the same text, byte for byte. Shared by
// incrementalEquivalence.test.ts (the repository's manifests) and scripts/incrementalCorpus.ts
// (every corpus manifest, when ../shared is beside the checkout).
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from '../../../server/src/documents';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';
import { documentValidation } from '../../../server/src/documentValidation';
import { ManifestDocument } from '../../../server/src/documents';
import { validateManifestDetailed, type ValidationDetails } from '../../../server/src/runtime';
import { splitText, type Block } from '../../../server/src/model/blockSplitter';
import { referenceSites } from '../../../server/src/features/componentPath';
import { templateFindingsMemo } from '../../../server/src/runtime/rules/templateRules';

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
export type Edit = { name: string; text: string };

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
const CHARS = 'abcxyz_0123 :-#{}[]"\'\n';

/** Start offsets of the lines of `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(text: string, starts: number[], l: number): string {
  const end = l + 1 < starts.length ? starts[l + 1] - 1 : text.length;
  return text.slice(starts[l], end);
}

/** The lines of the block that starts at line `l` (it and the deeper-indented lines after it). */
function blockEnd(text: string, starts: number[], l: number): number {
  const indent = (s: string) => s.length - s.trimStart().length;
  const col = indent(lineAt(text, starts, l));
  let e = l + 1;
  while (e < starts.length) {
    const s = lineAt(text, starts, e);
    if (s.trim() !== '' && !s.trimStart().startsWith('#') && indent(s) <= col) break;
    e++;
  }
  return e;
}

const splice = (text: string, at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove);

/** One random edit of `text`; `undo` is the text before the previous edit (to "fix" what it broke). */
export function randomEdit(rng: Rng, text: string, undo: string | undefined): Edit {
  const starts = lineStarts(text);
  const lines = starts.length;
  const l = Math.floor(rng() * lines);
  const line = lineAt(text, starts, l);
  const kind = Math.floor(rng() * 11);
  switch (kind) {
    case 0:
    case 1: {
      // A character typed in a value (or in a key when the line has no value).
      const colon = line.indexOf(': ');
      const from = colon >= 0 ? colon + 2 : line.length - line.trimStart().length;
      const at = starts[l] + from + Math.floor(rng() * (line.length - from + 1));
      const ch = pick(rng, [...'abcxyz_019.']);
      return { name: `type ${JSON.stringify(ch)} at line ${l + 1}`, text: splice(text, at, 0, ch) };
    }
    case 2: {
      // A character deleted in a key or a value.
      if (line.trim() === '') return { name: 'type a newline', text: splice(text, starts[l], 0, '\n') };
      const at = starts[l] + Math.floor(rng() * line.length);
      return { name: `delete a character at line ${l + 1}`, text: splice(text, at, 1, '') };
    }
    case 3: {
      // Any character anywhere: often breaks the YAML.
      const at = Math.floor(rng() * (text.length + 1));
      const ch = pick(rng, [...CHARS]);
      return { name: `insert ${JSON.stringify(ch)} at ${at}`, text: splice(text, at, 0, ch) };
    }
    case 4:
      // Undo: the text before the previous edit (a break fixed).
      if (undo !== undefined) return { name: 'undo', text: undo };
      return { name: 'append a comment', text: `${text}\n# note\n` };
    case 5: {
      // A stream (or any list item) removed.
      const items = [...Array(lines).keys()].filter((i) => /^\s*- /.test(lineAt(text, starts, i)));
      if (!items.length) return { name: 'no item to remove', text };
      const i = pick(rng, items);
      const e = blockEnd(text, starts, i);
      const end = e < lines ? starts[e] : text.length;
      return { name: `remove the item at line ${i + 1}`, text: splice(text, starts[i], end - starts[i], '') };
    }
    case 6: {
      // A list item duplicated (a stream added by copy).
      const items = [...Array(lines).keys()].filter((i) => /^\s*- /.test(lineAt(text, starts, i)));
      if (!items.length) return { name: 'no item to copy', text };
      const i = pick(rng, items);
      const e = blockEnd(text, starts, i);
      const end = e < lines ? starts[e] : text.length;
      const block = text.slice(starts[i], end);
      return { name: `copy the item at line ${i + 1}`, text: splice(text, end, 0, block.endsWith('\n') ? block : `${block}\n`) };
    }
    case 7: {
      // A definition edited: a field added or a value changed under `definitions:`.
      const defs = [...Array(lines).keys()].filter((i) =>
        /^ {2,6}(url_base|http_method|field_path|type|path|name|field_name):/.test(lineAt(text, starts, i)),
      );
      if (!defs.length) return { name: 'no definition field', text };
      const i = pick(rng, defs);
      const s = lineAt(text, starts, i);
      const indent = s.slice(0, s.length - s.trimStart().length);
      return rng() < 0.5
        ? { name: `a field added after line ${i + 1}`, text: splice(text, starts[i], 0, `${indent}extra_field: 1\n`) }
        : { name: `a value changed at line ${i + 1}`, text: splice(text, starts[i] + s.indexOf(':') + 1, 0, ' x') };
    }
    case 8: {
      // A whole line deleted.
      const end = l + 1 < lines ? starts[l + 1] : text.length;
      return { name: `delete line ${l + 1}`, text: splice(text, starts[l], end - starts[l], '') };
    }
    case 9: {
      // A reference pointed elsewhere (or broken).
      const refs = [...Array(lines).keys()].filter((i) => lineAt(text, starts, i).includes('#/'));
      if (!refs.length) return { name: 'no reference', text };
      const i = pick(rng, refs);
      const s = lineAt(text, starts, i);
      const at = starts[i] + s.indexOf('#/') + 2;
      return { name: `a reference edited at line ${i + 1}`, text: splice(text, at, 0, pick(rng, ['x', 'definitions/', 'streams/0/'])) };
    }
    default: {
      // Indentation changed (a block moved up or down a level).
      return rng() < 0.5
        ? { name: `indent line ${l + 1}`, text: splice(text, starts[l], 0, '  ') }
        : { name: `dedent line ${l + 1}`, text: line.startsWith('  ') ? splice(text, starts[l], 2, '') : text };
    }
  }
}

/** Every path of a resolved value (at most `limit`), containers and leaves. */
function paths(value: unknown, limit: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (out.length >= limit) return;
    out.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], [...path, k]);
  };
  walk(value, []);
  return out;
}

/**
 * What a version's validation gives the user, as text: its problems (spans, messages, related
 * information, fixes), its resolved manifest, where every resolved value comes from (source path and
 * reference chain: what related information and quick fixes are built from) and the templates found.
 */
function render(details: ValidationDetails): string {
  const resolved = details.resolved;
  const origins = resolved ? paths(resolved.value, 20_000).map((p) => resolved.origins.sourceOf(p)) : null;
  return JSON.stringify({
    problems: details.problems,
    resolved: resolved?.value,
    unresolved: resolved?.origins.unresolved,
    origins,
    templates: details.templates,
  });
}

/** The incremental analysis of the next version of the document kept in `docs`, and its diagnostics. */
function incrementalAnalysis(
  docs: ManifestDocuments,
  uri: string,
  version: number,
  text: string,
): { rendered: string; diagnostics: string; sites: string } {
  const doc = docs.get(TextDocument.create(uri, 'yaml', version, text));
  const diagnostics = JSON.stringify(provideDiagnostics(doc));
  // The reference sites completion and hover read (kept per subtree across versions).
  const sites = JSON.stringify([...referenceSites(doc.model.value)]);
  return { rendered: render(documentValidation(doc)), diagnostics, sites };
}

/**
 * The from-scratch analysis: a new document (no earlier version, no block reused) validated by the
 * runtime's plain path (no resolution memo), and the diagnostics a fresh open publishes.
 */
function freshAnalysis(uri: string, text: string): { rendered: string; diagnostics: string; sites: string } {
  // Nothing kept by earlier analyses is read: the template checks run again.
  templateFindingsMemo.enabled = false;
  try {
    const doc = new ManifestDocument(uri, 1, text, undefined);
    const rendered = render(validateManifestDetailed(doc.parsed));
    const opened = new ManifestDocuments().get(TextDocument.create(uri, 'yaml', 1, text));
    const diagnostics = JSON.stringify(provideDiagnostics(opened));
    return { rendered, diagnostics, sites: JSON.stringify([...referenceSites(opened.model.value)]) };
  } finally {
    templateFindingsMemo.enabled = true;
  }
}

/** A split as plain data (offsets, kinds and sub-blocks). */
function splitShape(blocks: Block[] | undefined): string {
  const plain = (bs: Block[]): unknown => bs.map((b) => [b.kind, b.lineStart, b.start, b.end, b.children && plain(b.children)]);
  return JSON.stringify(blocks ? plain(blocks) : null);
}

/**
 * Applies `count` random edits to `start` (seeded) and compares, after each, the incremental analysis
 * (one document edited version after version) with a fresh one. Returns the first difference, if any.
 */
export function checkRandomEdits(start: string, seed: number, count: number): string | undefined {
  const rng = random(seed);
  const docs = new ManifestDocuments();
  const uri = 'file:///edited.yaml';
  let text = start;
  let previous: string | undefined;
  let version = 1;
  incrementalAnalysis(docs, uri, version, text);
  for (let n = 0; n < count; n++) {
    const edit = randomEdit(rng, text, previous);
    previous = text;
    text = edit.text;
    version++;
    // The block split reusing the previous version's equals a split from scratch.
    const before = splitText(previous);
    const reusing = splitShape(splitText(text, before ?? undefined)?.blocks);
    if (reusing !== splitShape(splitText(text)?.blocks))
      return `seed ${seed}, edit ${n + 1} (${edit.name}): the incremental block split differs from a fresh one`;
    const incremental = incrementalAnalysis(docs, uri, version, text);
    const fresh = freshAnalysis(uri, text);
    if (incremental.diagnostics !== fresh.diagnostics)
      return `seed ${seed}, edit ${n + 1} (${edit.name}): the diagnostics differ from a fresh open's`;
    if (incremental.rendered !== fresh.rendered)
      return `seed ${seed}, edit ${n + 1} (${edit.name}): the validation differs from a from-scratch one`;
    if (incremental.sites !== fresh.sites)
      return `seed ${seed}, edit ${n + 1} (${edit.name}): the reference sites differ from a fresh document's`;
  }
  return undefined;
}
