// Finds every template of a resolved manifest with the context kind of the field that holds it
// (from the component catalog) and the offset map back to the document text. Templates reached
// through references are reported once per (source scalar, kind).
import { isScalar } from 'yaml';
import type { TemplateContextKind } from '../interpolation/contextKinds';
import { hasTemplateMarkup } from '../interpolation/templateMarkup';
import type { JsonPath } from '../manifest/origins';
import type { ManifestLocator } from '../manifest/locator/manifestLocator';
import type { ResolvedManifest } from '../manifest/resolve';

/** What the walker needs from the component catalog. */
export interface TemplateCatalog {
  /** Template context of `type.field`, or undefined when the field is not interpolated. */
  contextFor(type: string, field: string): TemplateContextKind | undefined;
  /** Whether `type` names a catalog component (nested components are walked on their own). */
  isComponentType(type: string): boolean;
  /** Fields of plain data (JSON schemas) that hold neither templates nor components: not walked. */
  isDataField?(type: string, field: string): boolean;
}

/** A template found in the document. */
export interface FoundTemplate {
  /** The template text (the decoded scalar value). */
  text: string;
  kind: TemplateContextKind;
  /** Document offset of each template character, plus one for the end. */
  offsets: number[];
  /** Document offset of the scalar's first character (its quote or indicator included). */
  start: number;
  /** Document offset where the scalar ends (after its closing quote, if any). */
  end: number;
  /** Component type and field that hold the template. */
  component: string;
  field: string;
  /** Resolved path of the value. */
  path: JsonPath;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Where the walker reads template scalars: the manifest's locator (locator.ts), by indentation first
 * (quickScalar.ts), through the parser otherwise. In the language server both are answered per block
 * and cached while a block is unchanged; the parsed `yaml` Document is requested only when a
 * template needs it. `aliasFree`: the text has no YAML alias, so one source path is one scalar.
 */
export type TemplateSources = Pick<ManifestLocator, 'quickScalar' | 'findSourceNode' | 'scalarOffsets'> & {
  readonly aliasFree?: boolean;
};

/** A template value found in the resolved manifest, located in the text on first request. */
export interface TemplateCandidate {
  text: string;
  kind: TemplateContextKind;
  component: string;
  field: string;
  /** Resolved path of the value. */
  path: JsonPath;
  /** The template where it is written, or null when no string scalar of this value is written there. */
  located(): FoundTemplate | null;
}

/**
 * Walks the resolved manifest and returns its templates with document offsets. The parsed `yaml`
 * document is requested only when a template is found (it is expensive on big files). Never throws.
 */
export function findTemplates(
  sources: TemplateSources,
  text: string,
  resolved: ResolvedManifest,
  catalog: TemplateCatalog,
): FoundTemplate[] {
  return locateAll(findTemplateCandidates(sources, text, resolved, catalog));
}

/** The located templates of `candidates`, one per source scalar and kind, in walk order. */
export function locateAll(candidates: readonly TemplateCandidate[]): FoundTemplate[] {
  const found: FoundTemplate[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    const t = c.located();
    if (!t) continue;
    const key = `${t.start}|${t.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(t);
  }
  return found;
}

/**
 * Every template of a resolved manifest, one per source scalar and kind. Where the text has no
 * alias (`sources.aliasFree`), a source path names one scalar, so candidates are told apart by their
 * source path and located only when asked: validation locates those with a problem, so opening a
 * large manifest does not look up hundreds of scalars before its diagnostics are out (the language
 * server locates the rest once they are; languageServer.ts). Otherwise each is located as it is
 * found and told apart by its scalar's position. Never throws.
 */
export function findTemplateCandidates(
  sources: TemplateSources,
  _text: string,
  resolved: ResolvedManifest,
  catalog: TemplateCatalog,
): TemplateCandidate[] {
  const found: TemplateCandidate[] = [];
  const seen = new Set<string>();
  const lazy = sources.aliasFree === true;
  // One mutable path: copied only for the templates found, not for every visited value.
  const path: (string | number)[] = [];

  const addString = (value: string, kind: TemplateContextKind, component: string, field: string) => {
    if (!hasTemplateMarkup(value)) return;
    const here = [...path];
    const source = resolved.origins.sourceOf(here).path;
    if (lazy) {
      // The same source path, kind and value: the same scalar, located the same way.
      const key = `${kind}\u0000${value}\u0000${source.join('\u0000')}`;
      if (seen.has(key)) return;
      seen.add(key);
      let done = false;
      let template: FoundTemplate | null = null;
      found.push({
        text: value,
        kind,
        component,
        field,
        path: here,
        located() {
          if (!done) {
            template = locateTemplate(sources, source, value, kind, component, field, here);
            done = true;
          }
          return template;
        },
      });
      return;
    }
    const template = locateTemplate(sources, source, value, kind, component, field, here);
    if (!template) return;
    // One report per source scalar (its start identifies it) and kind.
    const key = `${template.start}|${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ text: value, kind, component, field, path: here, located: () => template });
  };

  // Values of an interpolated field: strings, list items and mapping values; nested components are skipped.
  const visitField = (v: unknown, kind: TemplateContextKind, component: string, field: string, depth: number) => {
    if (depth > 50) return;
    if (typeof v === 'string') addString(v, kind, component, field);
    else if (Array.isArray(v)) {
      v.forEach((x, i) => {
        path.push(i);
        visitField(x, kind, component, field, depth + 1);
        path.pop();
      });
    } else if (isObject(v)) {
      if (typeof v.type === 'string' && catalog.isComponentType(v.type)) return;
      for (const k of Object.keys(v)) {
        path.push(k);
        visitField(v[k], kind, component, field, depth + 1);
        path.pop();
      }
    }
  };

  const walk = (v: unknown, depth: number) => {
    if (depth > 200 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    const obj = v as Record<string, unknown>;
    const type = typeof obj.type === 'string' ? obj.type : null;
    for (const k of Object.keys(obj)) {
      // Inline JSON schemas are most of a large manifest's resolved value and never hold templates.
      if (type && catalog.isDataField?.(type, k)) continue;
      path.push(k);
      const kind = type ? catalog.contextFor(type, k) : undefined;
      if (kind && type) visitField(obj[k], kind, type, k, 0);
      walk(obj[k], depth + 1);
      path.pop();
    }
  };
  walk(resolved.value, 0);
  return found;
}

/** The template `value` written as a string scalar at `source`, or null when it is not written there. */
function locateTemplate(
  sources: TemplateSources,
  source: JsonPath,
  value: string,
  kind: TemplateContextKind,
  component: string,
  field: string,
  here: JsonPath,
): FoundTemplate | null {
  // Most templates are scalars in block style: found by indentation, no parse needed.
  const where = sources.quickScalar(source, value) ?? sources.findSourceNode(source);
  if (!where || !isScalar(where.node)) return null;
  const node = where.node;
  const base = where.base;
  // Exactly when scalarOffsets would answer null, or the scalar is not this value.
  if (typeof node.value !== 'string' || !node.range || node.value !== value) return null;
  // The offsets of every character are computed when first read: validation reads them only for
  // the templates with a problem, so opening a large manifest does not map hundreds of scalars
  // character by character before its diagnostics are out (the language server reads the rest
  // once they are; languageServer.ts).
  let offsets: number[] | undefined;
  return {
    text: value,
    kind,
    get offsets(): number[] {
      offsets ??= sources.scalarOffsets(node, base) ?? [];
      return offsets;
    },
    start: node.range[0] + base,
    end: node.range[1] + base,
    component,
    field,
    path: here,
  };
}
