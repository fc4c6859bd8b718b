// Finds every template of a resolved manifest with the context kind of the field that holds it
// (from the component catalog) and the offset map back to the document text. Templates reached
// through references are reported once per (source scalar, kind).
import { isScalar, type Document } from 'yaml';
import type { TemplateContextKind } from '../runtime/interpolation/contextKinds';
import { hasTemplateMarkup, scalarOffsets } from '../runtime/interpolation/scalarOffsets';
import { findSourceNode, type JsonPath } from '../runtime/manifest/origins';
import type { ResolvedManifest } from '../runtime/manifest/resolve';

/** What the walker needs from the component catalog. */
export interface TemplateCatalog {
  /** Template context of `type.field`, or undefined when the field is not interpolated. */
  contextFor(type: string, field: string): TemplateContextKind | undefined;
  /** Whether `type` names a catalog component (nested components are walked on their own). */
  isComponentType(type: string): boolean;
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

/** Walks the resolved manifest and returns its templates with document offsets. Never throws. */
export function findTemplates(doc: Document, text: string, resolved: ResolvedManifest, catalog: TemplateCatalog): FoundTemplate[] {
  const found: FoundTemplate[] = [];
  const seen = new Set<string>();

  const addString = (value: string, path: JsonPath, kind: TemplateContextKind, component: string, field: string) => {
    if (!hasTemplateMarkup(value)) return;
    const source = resolved.origins.sourceOf(path).path;
    const { node, matched } = findSourceNode(doc, source);
    if (!node || matched !== source.length || !isScalar(node)) return;
    const offsets = scalarOffsets(text, node);
    if (!offsets || node.value !== value) return;
    const key = `${offsets[0]}|${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ text: value, kind, offsets, component, field, path });
  };

  // Values of an interpolated field: strings, list items and mapping values; nested components are skipped.
  const visitField = (v: unknown, path: JsonPath, kind: TemplateContextKind, component: string, field: string, depth: number) => {
    if (depth > 50) return;
    if (typeof v === 'string') addString(v, path, kind, component, field);
    else if (Array.isArray(v)) v.forEach((x, i) => visitField(x, [...path, i], kind, component, field, depth + 1));
    else if (isObject(v)) {
      if (typeof v.type === 'string' && catalog.isComponentType(v.type)) return;
      for (const [k, x] of Object.entries(v)) visitField(x, [...path, k], kind, component, field, depth + 1);
    }
  };

  const walk = (v: unknown, path: JsonPath, depth: number) => {
    if (depth > 200) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, i], depth + 1));
      return;
    }
    if (!isObject(v)) return;
    const type = typeof v.type === 'string' ? v.type : null;
    for (const [k, x] of Object.entries(v)) {
      const kind = type ? catalog.contextFor(type, k) : undefined;
      if (kind && type) visitField(x, [...path, k], kind, type, k, 0);
      walk(x, [...path, k], depth + 1);
    }
  };
  walk(resolved.value, [], 0);
  return found;
}
