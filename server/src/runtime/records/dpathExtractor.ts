// DpathExtractor (§8.2): records at a field path of each decoded element, with `*` wildcards.
import type { RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';

/** Extracts the records of one decoded element. */
export type RecordExtractor = { extract(element: unknown): unknown[] };

/** Builds a DpathExtractor; field_path segments are rendered once with config and parameters. */
export function createDpathExtractor(
  component: Record<string, unknown> | undefined,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
): RecordExtractor {
  if (component && component.type !== undefined && component.type !== 'DpathExtractor') {
    if (component.type === 'CustomRecordExtractor')
      throw configError('CustomRecordExtractor runs Python code and is not runnable outside the Python CDK.');
    throw configError(`Record extractor ${JSON.stringify(component.type)} is not supported by this runtime.`);
  }
  const params = (component?.$parameters as object) ?? parameters;
  const rawPath = (component?.field_path as unknown[]) ?? [];
  if (!Array.isArray(rawPath)) throw configError('DpathExtractor.field_path must be a list of strings.');
  const path = rawPath.map((seg) => pythonStr(evalString(seg, { config, parameters: params }, env)));
  const expand = createRecordExpander(component?.record_expander as Record<string, unknown> | undefined, config, params, env);
  return {
    extract(element) {
      const found = path.length === 0 ? element : path.includes('*') ? globSearch(element, path) : getPath(element, path);
      if (Array.isArray(found)) return expand ? found.flatMap(expand) : found;
      if (found === undefined || found === null) return [];
      if (typeof found === 'object' && Object.keys(found as object).length === 0) return [];
      return expand ? expand(found) : [found];
    },
  };
}

/**
 * RecordExpander (CDK 7.x, on DpathExtractor.record_expander): each extracted record becomes the items
 * of the lists at `expand_records_from_field` (`*` allowed); a mapping item gets the parent under
 * `original_record` when `remain_original_record`, a scalar item becomes `{value, original_record}`.
 * Null when the extractor has no expander.
 */
function createRecordExpander(
  component: Record<string, unknown> | undefined,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
): ((record: unknown) => unknown[]) | null {
  if (!component) return null;
  const raw = component.expand_records_from_field;
  if (!Array.isArray(raw)) throw configError('RecordExpander.expand_records_from_field must be a list of strings.');
  const params = (component.$parameters as object) ?? parameters;
  // Rendered per record in the reference (`path.eval(config)`), with the same result every time.
  const path = raw.map((seg) => pythonStr(evalString(seg, { config, parameters: params }, env)));
  const keepOriginal = component.remain_original_record === true;
  const emitParent = component.on_no_records === 'emit_parent';
  return (record) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record) || path.length === 0) return [record];
    const out: unknown[] = [];
    for (const list of globSearch(record, path)) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (item !== null && typeof item === 'object' && !Array.isArray(item))
          out.push(keepOriginal ? { ...item, original_record: structuredClone(record) } : { ...item });
        else out.push(keepOriginal ? { value: item, original_record: structuredClone(record) } : item);
      }
    }
    if (out.length === 0 && emitParent) out.push(record);
    return out;
  };
}

function child(v: unknown, seg: string): unknown {
  if (Array.isArray(v)) return /^\d+$/.test(seg) ? v[Number(seg)] : undefined;
  if (v !== null && typeof v === 'object') return Object.hasOwn(v, seg) ? (v as Record<string, unknown>)[seg] : undefined;
  return undefined;
}

function getPath(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const seg of path) {
    cur = child(cur, seg);
    if (cur === undefined) return [];
  }
  return cur;
}

/** All values whose path matches; `*` matches any key or index. Results are not flattened. */
function globSearch(v: unknown, path: string[]): unknown[] {
  let level: unknown[] = [v];
  for (const seg of path) {
    const next: unknown[] = [];
    for (const node of level) {
      if (seg === '*') {
        if (Array.isArray(node)) next.push(...node);
        else if (node !== null && typeof node === 'object') next.push(...Object.values(node as object));
      } else {
        const c = child(node, seg);
        if (c !== undefined) next.push(c);
      }
    }
    level = next;
  }
  return level;
}
