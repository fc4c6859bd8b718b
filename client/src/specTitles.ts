// Names of config fields as the testing-values form shows them: the spec's titles along a JSON pointer.
// No vscode or ajv import: the form's webview script uses it too.

type SpecNode = { title?: unknown; properties?: Record<string, SpecNode>; oneOf?: SpecNode[]; anyOf?: SpecNode[]; items?: SpecNode };

/**
 * The field at a JSON pointer named by its spec titles, outermost first ("OAuth credentials › Client
 * ID"); a key without a title is shown as written, array items as "item N". '' names the whole config.
 */
export function fieldTitle(spec: object | null, pointer: string): string {
  if (pointer === '') return 'The testing values';
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const names: string[] = [];
  let node: SpecNode | undefined = (spec ?? undefined) as SpecNode | undefined;
  for (const key of keys) {
    const options = node ? [node, ...(node.oneOf ?? []), ...(node.anyOf ?? [])] : [];
    const holder = options.find((o) => o.properties && key in o.properties);
    if (holder) {
      node = holder.properties![key];
      names.push(typeof node.title === 'string' && node.title ? node.title : key);
    } else if (/^\d+$/.test(key) && node?.items) {
      node = node.items;
      names.push(`item ${Number(key) + 1}`);
    } else {
      node = undefined;
      names.push(key);
    }
  }
  return names.join(' › ');
}
