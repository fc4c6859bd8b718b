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
 * template needs it.
 */
export type TemplateSources = Pick<ManifestLocator, 'quickScalar' | 'findSourceNode' | 'scalarOffsets'>;

/**
 * Walks the resolved manifest and returns its templates with document offsets. The parsed `yaml`
 * document is requested only when a template is found (it is expensive on big files). Never throws.
 */
export function findTemplates(
  sources: TemplateSources,
  _text: string,
  resolved: ResolvedManifest,
  catalog: TemplateCatalog,
): FoundTemplate[] {
  const found: FoundTemplate[] = [];
  const seen = new Set<string>();
  // One mutable path: copied only for the templates found, not for every visited value.
  const path: (string | number)[] = [];

  const addString = (value: string, kind: TemplateContextKind, component: string, field: string) => {
    if (!hasTemplateMarkup(value)) return;
    const here = [...path];
    const source = resolved.origins.sourceOf(here).path;
    // Most templates are scalars in block style: found by indentation, no parse needed.
    const where = sources.quickScalar(source, value) ?? sources.findSourceNode(source);
    if (!where || !isScalar(where.node)) return;
    const node = where.node;
    const base = where.base;
    // Exactly when scalarOffsets would answer null, or the scalar is not this value.
    if (typeof node.value !== 'string' || !node.range || node.value !== value) return;
    // One report per source scalar (its start identifies it) and kind.
    const key = `${node.range[0] + base}|${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    // The offsets of every character are computed when first read: validation reads them only for
    // the templates with a problem, so opening a large manifest does not map hundreds of scalars
    // character by character before its diagnostics are out (the language server reads the rest
    // once they are; documentValidation.ts).
    let offsets: number[] | undefined;
    found.push({
      text: value,
      kind,
      get offsets(): number[] {
        offsets ??= sources.scalarOffsets(node, base) ?? [];
        return offsets;
      },
      component,
      field,
      path: here,
    });
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
