// Which Python classes a manifest or one of its streams names (`class_name` of Custom* components and
// of any component written as a class), following `$ref` and "#/…" references, so the server can tell
// whether a stream needs the CDK engine. Pure: no I/O.

/** The class names the CDK loads from the connector's components.py (the layout of manifest-only connectors). */
export function isComponentsModuleClass(className: string): boolean {
  return className.startsWith('components.') || className.startsWith('source_declarative_manifest.components.');
}

function pointer(root: unknown, ref: string): unknown {
  const path = ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  let node = root;
  for (const raw of path) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The class names used below `node` (a stream, or the whole manifest), in order of appearance,
 * without duplicates; references are followed once each. Never throws.
 */
export function customClassNames(root: unknown, node: unknown = root): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 200 || value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const map = value as Record<string, unknown>;
    if (typeof map.class_name === 'string' && !found.includes(map.class_name)) found.push(map.class_name);
    for (const [key, v] of Object.entries(map)) {
      if (key === '$ref' && typeof v === 'string') visit(pointer(root, v), depth + 1);
      else if (typeof v === 'string' && v.startsWith('#/')) visit(pointer(root, v), depth + 1);
      else visit(v, depth + 1);
    }
  };
  visit(node, 0);
  return found;
}

/** The stream entry named `streamName` in `streams` (by `name` or `$parameters.name`, references followed), or undefined. */
export function findStreamNode(root: unknown, streamName: string): unknown {
  const streams = (root as Record<string, unknown> | null)?.streams;
  if (!Array.isArray(streams)) return undefined;
  for (const item of streams) {
    const s =
      typeof item === 'string' && item.startsWith('#/')
        ? pointer(root, item)
        : item && typeof item === 'object' && typeof (item as Record<string, unknown>).$ref === 'string'
          ? { ...(pointer(root, (item as Record<string, string>).$ref) as object), ...(item as object) }
          : item;
    if (!s || typeof s !== 'object') continue;
    const map = s as Record<string, unknown>;
    const params = map.$parameters as Record<string, unknown> | undefined;
    if (map.name === streamName || (map.name === undefined && params?.name === streamName)) return item;
  }
  return undefined;
}
