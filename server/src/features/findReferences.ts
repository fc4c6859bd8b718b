// Find references for config keys: from a property of spec.connection_specification (or a config
// key inside a template) to every template that reads it — `config.x`, `config['x']`,
// `config.get('x')`, and deeper reads such as `config.x.y`, which use `x` too.
import type { Location, ReferenceParams } from 'vscode-languageserver';
import { positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { compileTemplate } from '../runtime';
import type { ConfigAccess } from '../runtime';
import { configKeyPathOf, resolveConfigProperty } from '../runtime';
import { documentTemplates, templateAtOffset } from './jinjaDocument';
import { configAccessAt } from './jinjaHover';
import { isScalar } from 'yaml';
import { hasTemplateMarkup } from '../runtime';

const SPEC_PREFIX = ['spec', 'connection_specification'] as const;

/** Every use of the config key under the cursor; null when the cursor is on no config key. Never throws. */
export function provideReferences(doc: ManifestDocument, params: ReferenceParams): Location[] | null {
  const offset = positionToOffset(doc.textDocument, params.position);
  const keys = configKeysAt(doc, offset);
  if (!keys) return null;
  const spans: { start: number; end: number }[] = [];
  if (params.context.includeDeclaration) {
    const { spec } = documentTemplates(doc);
    const prop = spec ? resolveConfigProperty(spec, keys) : undefined;
    const declared = prop ? doc.locator.locate([...SPEC_PREFIX, ...prop.specPath]) : null;
    if (declared?.keySpan) spans.push(declared.keySpan);
  }
  spans.push(...configKeyUses(doc, keys));
  return spans.map((s) => ({ uri: doc.uri, range: spanToRange(doc.textDocument, s) }));
}

/** The config key path under the cursor: a property key in the spec, or a key of a config read in a template. */
function configKeysAt(doc: ManifestDocument, offset: number): string[] | null {
  const inTemplate = templateAtOffset(doc, offset);
  if (inTemplate) {
    const access = configAccessAt(inTemplate);
    return access && access.path.length ? access.path : null;
  }
  const at = doc.locator.nodeAt(offset);
  if (!at || !at.onKey || at.path[0] !== SPEC_PREFIX[0] || at.path[1] !== SPEC_PREFIX[1]) return null;
  const specPath = at.path.slice(2);
  // Only the property's own key counts (not `title:` or `type:` inside it).
  if (specPath[specPath.length - 2] !== 'properties') return null;
  return configKeyPathOf(specPath);
}

/** Document spans of the key `keys[keys.length - 1]` in every template read of `keys` (or deeper), each once. */
export function configKeyUses(doc: ManifestDocument, keys: readonly string[]): { start: number; end: number }[] {
  const seen = new Set<number>();
  const out: { start: number; end: number }[] = [];
  for (const t of sourceTemplates(doc)) {
    let accesses: ConfigAccess[];
    try {
      accesses = compileTemplate(t.text).facts.configAccesses;
    } catch {
      continue;
    }
    for (const access of accesses) {
      if (access.path.length < keys.length || keys.some((k, i) => access.path[i] !== k)) continue;
      const span = keySpan(t.text, access, keys.length);
      if (!span) continue;
      const start = t.offsets[span.start];
      // A definition used by several streams is one text: report it once.
      if (seen.has(start)) continue;
      seen.add(start);
      out.push({ start, end: t.offsets[Math.min(span.end, t.offsets.length - 1)] });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

type SourceTemplate = { text: string; offsets: number[] };
const templatesCache = new WeakMap<ManifestDocument, SourceTemplate[]>();

/**
 * Every template string written in the manifest, wherever it is: also in custom components and in
 * definitions no stream uses, which the catalog-driven template list does not reach.
 */
function sourceTemplates(doc: ManifestDocument): SourceTemplate[] {
  const cached = templatesCache.get(doc);
  if (cached) return cached;
  const out: SourceTemplate[] = [];
  const path: (string | number)[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 200) return;
    if (typeof v === 'string') {
      if (!hasTemplateMarkup(v)) return;
      const where = doc.locator.findSourceNode(path);
      if (!where || !isScalar(where.node) || where.node.value !== v) return;
      const offsets = doc.locator.scalarOffsets(where.node, where.base);
      if (offsets) out.push({ text: v, offsets });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => {
        path.push(i);
        walk(item, depth + 1);
        path.pop();
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        // The spec's JSON schema holds no templates.
        if (depth === 1 && path[0] === 'spec' && k === 'connection_specification') continue;
        path.push(k);
        if (hasTemplateMarkup(k)) {
          const key = keyTemplate(doc, path, k);
          if (key) out.push(key);
        }
        walk(item, depth + 1);
        path.pop();
      }
    }
  };
  walk(doc.model.value, 0);
  templatesCache.set(doc, out);
  return out;
}

/** A templated mapping key (interpolated in request_parameters and the like) with its offsets; plain or simply quoted keys only. */
function keyTemplate(doc: ManifestDocument, path: readonly (string | number)[], key: string): SourceTemplate | null {
  const span = doc.locator.locate(path)?.keySpan;
  if (!span) return null;
  const raw = doc.text.slice(span.start, span.end);
  const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0];
  const inner = quoted ? raw.slice(1, -1) : raw;
  // Escapes would shift offsets: such keys are left out.
  if (inner !== key) return null;
  const first = span.start + (quoted ? 1 : 0);
  return { text: key, offsets: Array.from({ length: key.length + 1 }, (_, i) => first + i) };
}

/** Span (template indexes) of the `n`th key of an access, found in order after `config`. */
function keySpan(text: string, access: ConfigAccess, n: number): { start: number; end: number } | null {
  let from = access.start + 'config'.length;
  let found = -1;
  for (let i = 0; i < n; i++) {
    found = text.indexOf(access.path[i], from);
    if (found < 0 || found > access.end) return null;
    from = found + access.path[i].length;
  }
  return { start: found, end: from };
}
