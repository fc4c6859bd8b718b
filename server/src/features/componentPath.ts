// Which component a path of the manifest lands in: walks the path from the root through the
// catalog's slots, following references and inserting default types (Spec §1.2) the way the CDK
// would. Pieces under `definitions` get their type from the places that reference them.
import type { Segment } from '../model/manifestModel';
import type { FieldInfo, FormatIndex } from './formatIndex';
import { findReferenceTarget, followReference, referencePath } from './references';

/** The slot a mapping sits in: the component type above it and the field name. */
export type Slot = { parentType: string; field: string; info: FieldInfo | undefined };

/** The component at a path: its type (explicit or default), its slot, and its value (references followed). */
export type ComponentAtPath = { type: string | undefined; slot: Slot | null; value: unknown };

const MAX_REFERENCE_HOPS = 8;

/** Finds the component whose mapping is at `path`. Never throws; `type` is undefined when unknown. */
export function componentAt(index: FormatIndex, root: unknown, path: readonly Segment[], hops = 0): ComponentAtPath {
  let type: string | undefined = isMap(root) && typeof root.type === 'string' ? root.type : 'DeclarativeSource';
  let value: unknown = root;
  let slot: Slot | null = null;
  let i = 0;
  while (i < path.length) {
    const segment = path[i];
    const info: FieldInfo | undefined = typeof segment === 'string' ? index.field(type, segment) : undefined;
    if (info?.components?.length && type !== undefined) {
      const container = followReference(root, child(value, segment));
      let element = container;
      let step = 1;
      if ((info.list || info.mapOf) && (Array.isArray(container) || (info.mapOf && isMap(container)))) {
        if (i + 1 >= path.length) return { type: undefined, slot: null, value: container };
        element = followReference(root, child(container, path[i + 1]));
        step = 2;
      }
      slot = { parentType: type, field: String(segment), info };
      type =
        explicitType(element) ??
        index.defaultType(type, String(segment), isMap(element) && 'class_name' in element) ??
        (info.components.length === 1 ? info.components[0] : undefined);
      value = element;
      i += step;
      continue;
    }
    value = followReference(root, child(value, segment));
    slot = type !== undefined && typeof segment === 'string' ? { parentType: type, field: segment, info } : null;
    type = explicitType(value);
    i += 1;
    if (type === undefined && hops < MAX_REFERENCE_HOPS) {
      // A reusable piece gets the type of the slot that references it.
      const site = referenceSites(root).get(pathKey(path.slice(0, i)));
      if (site) {
        const used = componentAt(index, root, site, hops + 1);
        type = used.type;
        slot = used.slot;
      }
    }
  }
  return { type, slot, value };
}

function explicitType(v: unknown): string | undefined {
  return isMap(v) && typeof v.type === 'string' ? v.type : undefined;
}

function child(v: unknown, segment: Segment): unknown {
  if (Array.isArray(v)) return typeof segment === 'number' ? v[segment] : undefined;
  return isMap(v) ? v[String(segment)] : undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function pathKey(path: readonly Segment[]): string {
  return path.join('\u0000');
}

const sitesCache = new WeakMap<object, Map<string, Segment[]>>();

/** For each referenced path (joined), the first place that references it. Cached per manifest value. */
function referenceSites(root: unknown): Map<string, Segment[]> {
  if (!isMap(root)) return new Map();
  const cached = sitesCache.get(root);
  if (cached) return cached;
  const sites = new Map<string, Segment[]>();
  const record = (ref: string | null, at: Segment[]) => {
    if (ref === null) return;
    const target = findReferenceTarget(root, ref);
    if (target && !sites.has(pathKey(target))) sites.set(pathKey(target), at);
  };
  const walk = (v: unknown, at: Segment[], depth: number) => {
    if (depth > 64) return;
    if (typeof v === 'string') record(referencePath(v), at);
    else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...at, i], depth + 1));
    else if (isMap(v)) {
      // JSON schemas are large and hold no components: skip them.
      if (v.type === 'object' && 'properties' in v) return;
      record(referencePath(v.$ref), at);
      for (const [k, item] of Object.entries(v)) if (k !== '$ref' && k !== 'config_overrides') walk(item, [...at, k], depth + 1);
    }
  };
  // References from definitions to definitions count too, but the streams' uses come first.
  const walked = new Set<string>();
  for (const key of ['streams', 'dynamic_streams', 'check', 'spec', ...Object.keys(root)]) {
    if (walked.has(key) || !(key in root)) continue;
    walked.add(key);
    walk(root[key], [key], 1);
  }
  sitesCache.set(root, sites);
  return sites;
}
