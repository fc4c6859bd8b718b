// Rename of a key under `definitions` (or `schemas`), from the key itself or from any reference
// that names it: the key and the matching segment of every `"#/…"` string and `$ref` whose path
// goes through it are rewritten together, so every reference still reaches its target.
import { isScalar } from 'yaml';
import type { ManifestDocument } from '../documents';
import type { Segment } from '../model/manifestModel';
import type { Span } from '../runtime';
import { deepEqual } from './extractDefinition';
import { findReferenceTarget, referencePath, valueAt } from './references';
import type { SpanEdit } from './yamlText';

/** Top-level sections whose keys can be renamed: the places references conventionally point at. */
const RENAMABLE_SECTIONS = new Set(['definitions', 'schemas']);

/** What a rename at an offset would rename: the key's path, the text to select and its current name. */
export type RenameTarget = { path: Segment[]; span: Span; placeholder: string };

/** A rename that cannot be done, with the reason to show. */
export type RenameRefusal = { refused: string };

/** A key a reference can name without quoting or escaping (no `/`, spaces, quotes or YAML indicators). */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** The renamable key under `offset` (a definitions key, or the segment of a reference naming one), or null. Never throws. */
export function prepareDefinitionRename(doc: ManifestDocument, offset: number): RenameTarget | null {
  const model = doc.model;
  const at = doc.locator.nodeAt(offset);
  if (!at || !at.node) return null;
  if (at.onKey) {
    const last = at.path[at.path.length - 1];
    if (!isRenamable(at.path) || typeof last !== 'string') return null;
    return { path: at.path, span: at.span, placeholder: last };
  }
  if (!isScalar(at.node) || at.path.includes('config_overrides')) return null;
  const ref = referencePath(at.node.value);
  if (ref === null) return null;
  const target = findReferenceTarget(model.value, ref);
  // Segments map to the text only when the path was not reached through another `$ref`.
  if (!target || target.map(String).join('/') !== ref) return null;
  const raw = doc.text.slice(at.span.start, at.span.end);
  const inRaw = raw.indexOf(`#/${ref}`);
  if (inRaw < 0) return null;
  let segmentStart = at.span.start + inRaw + 2;
  for (let i = 0; i < target.length; i++) {
    const segment = String(target[i]);
    const segmentEnd = segmentStart + segment.length;
    if (offset >= segmentStart && offset <= segmentEnd) {
      const path = target.slice(0, i + 1);
      if (!isRenamable(path) || typeof target[i] !== 'string') return null;
      return { path, span: { start: segmentStart, end: segmentEnd }, placeholder: segment };
    }
    segmentStart = segmentEnd + 1;
  }
  return null;
}

/** The edits renaming the key under `offset` to `newName`, or why it cannot be done. Never throws. */
export function renameDefinition(doc: ManifestDocument, offset: number, newName: string): SpanEdit[] | RenameRefusal {
  const target = prepareDefinitionRename(doc, offset);
  if (!target) return { refused: 'Only a key under `definitions` or `schemas` (or a reference naming one) can be renamed.' };
  if (!SAFE_NAME.test(newName))
    return { refused: `\`${newName}\` cannot be a reference segment: use letters, digits, \`_\`, \`.\` and \`-\`.` };
  const model = doc.model;
  const root = model.value;
  const parent = valueAt(root, target.path.slice(0, -1));
  if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, newName))
    return { refused: `\`${newName}\` already exists beside \`${target.placeholder}\`.` };
  const key = doc.locator.locate(target.path)?.keySpan;
  if (!key) return { refused: `\`${target.placeholder}\` is not written as a key.` };
  const edits: SpanEdit[] = [{ span: key, newText: newName }];
  const old = target.path.map(String).join('/');
  // The path of the renamed segment inside a reference string: after `#/` and its parents.
  const segmentOffset =
    2 +
    target.path
      .slice(0, -1)
      .map((s) => `${String(s)}/`)
      .join('').length;
  // A reference's prefix names the renamed key only if that prefix reaches it (keys may contain `/`).
  const reached = findReferenceTarget(root, old);
  if (!reached || !deepEqual(reached, target.path)) return edits;
  for (const { path, reference } of referenceStrings(root)) {
    const ref = reference.slice(2);
    if (ref !== old && !ref.startsWith(`${old}/`)) continue;
    const span = doc.locator.locate(path)?.valueSpan;
    if (!span) continue;
    const at = doc.text.slice(span.start, span.end).indexOf(reference);
    if (at < 0) continue;
    const start = span.start + at + segmentOffset;
    edits.push({ span: { start, end: start + String(target.path[target.path.length - 1]).length }, newText: newName });
  }
  return edits;
}

function isRenamable(path: readonly Segment[]): boolean {
  return path.length >= 2 && typeof path[0] === 'string' && RENAMABLE_SECTIONS.has(path[0]);
}

/** Every reference string in `root` with its path (`config_overrides` is copied verbatim by the CDK, never resolved). */
function referenceStrings(root: unknown): Array<{ path: Segment[]; reference: string }> {
  const out: Array<{ path: Segment[]; reference: string }> = [];
  const walk = (node: unknown, path: Segment[]) => {
    if (typeof node === 'string') {
      if (node.startsWith('#/')) out.push({ path, reference: node });
    } else if (Array.isArray(node)) node.forEach((child, i) => walk(child, [...path, i]));
    else if (node !== null && typeof node === 'object') {
      for (const [k, child] of Object.entries(node)) if (k !== 'config_overrides') walk(child, [...path, k]);
    }
  };
  walk(root, []);
  return out;
}
