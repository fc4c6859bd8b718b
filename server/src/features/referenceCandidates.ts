// The `#/...` paths a reference string can point at, for completion: every mapping under
// `definitions` and `schemas` (a few levels deep), in document order.
const MAX_DEPTH = 5;
const MAX_CANDIDATES = 2000;

/** Reference strings (`#/definitions/a/b`) to the reusable pieces of `root`. */
export function referenceCandidates(root: unknown): string[] {
  const out: string[] = [];
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return out;
  const walk = (v: unknown, path: string, depth: number) => {
    if (out.length >= MAX_CANDIDATES || depth > MAX_DEPTH || v === null || typeof v !== 'object' || Array.isArray(v)) return;
    out.push(`#/${path}`);
    const map = v as Record<string, unknown>;
    // A component or a JSON schema is a target as a whole; its inner fields rarely are.
    if (typeof map.type === 'string' && depth > 1) return;
    for (const [k, child] of Object.entries(map)) walk(child, `${path}/${k}`, depth + 1);
  };
  const top = root as Record<string, unknown>;
  for (const section of ['definitions', 'schemas']) {
    const v = top[section];
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, child] of Object.entries(v)) walk(child, `${section}/${k}`, 1);
  }
  return out;
}
