// Finds every template of a resolved manifest with the context kind of the field that holds it
// (from the component catalog) and the offset map back to the document text. Templates reached
// through references are reported once per (source scalar, kind).
import { isScalar, type Node, type Scalar } from 'yaml';
import type { TemplateContextKind } from '../interpolation/contextKinds';
import { hasTemplateMarkup, scalarOffsets } from '../interpolation/scalarOffsets';
import { findSourceNode, type JsonPath } from '../manifest/origins';
import { quickScalar } from '../manifest/quickScalar';
import type { ParsedManifest } from '../manifest/parse';
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
  /** Component type and field that hold the template. */
  component: string;
  field: string;
  /** Resolved path of the value. */
  path: JsonPath;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Finds the node written at a source path; `base` is the offset its ranges are relative to. */
export type SourceNodeFinder = (path: JsonPath) => { node: Node; base: number } | null;

/** Where the walker reads template scalars: by indentation first, through the parser otherwise. */
export interface TemplateSources {
  /** The string scalar written at `path` found by indentation (quickScalar.ts), or null. */
  quickScalar(path: JsonPath, value: string): { node: Scalar; base: number } | null;
  /** The node written at `path`, through the parser. */
  findNode: SourceNodeFinder;
}

type ParsedSources = Pick<ParsedManifest, 'doc' | 'text' | 'findSourceNode' | 'quickScalar'>;

/**
 * The sources of a parsed manifest: the incremental model's own when it has them (per block, cached
 * while a block is unchanged, no whole-document parse), otherwise lookups over the whole text and a
 * walk of the parsed `yaml` Document, requested only when a template needs it.
 */
export function templateSources(parsed: ParsedSources): TemplateSources {
  const findNode: SourceNodeFinder = parsed.findSourceNode ?? ((path) => {
    const { node, matched } = findSourceNode(parsed.doc, path);
    return node && matched === path.length ? { node, base: 0 } : null;
  });
  const quick = parsed.quickScalar ?? ((path: JsonPath, value: string) => {
    const node = quickScalar(parsed.text, path, value);
    return node ? { node, base: 0 } : null;
  });
  return { quickScalar: quick, findNode };
}

/**
 * Walks the resolved manifest and returns its templates with document offsets. The parsed `yaml`
 * document is requested only when a template is found (it is expensive on big files). Never throws.
 */
export function findTemplates(sources: TemplateSources, text: string, resolved: ResolvedManifest, catalog: TemplateCatalog): FoundTemplate[] {
  const found: FoundTemplate[] = [];
  const seen = new Set<string>();
  // One mutable path: copied only for the templates found, not for every visited value.
  const path: (string | number)[] = [];

  const addString = (value: string, kind: TemplateContextKind, component: string, field: string) => {
    if (!hasTemplateMarkup(value)) return;
    const here = [...path];
    const source = resolved.origins.sourceOf(here).path;
    // Most templates are scalars in block style: found by indentation, no parse needed.
    const where = sources.quickScalar(source, value) ?? sources.findNode(source);
    if (!where || !isScalar(where.node)) return;
    const node = where.node;
    const offsets = scalarOffsets(text, node, where.base);
    if (!offsets || node.value !== value) return;
    const key = `${offsets[0]}|${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ text: value, kind, offsets, component, field, path: here });
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
