// Deprecation warnings of a test read, as the reference lists them: its component factory collects the
// deprecated fields of every HttpRequester it builds (the only component with deprecated fields at the
// pinned CDK) while it builds every stream of the manifest — other streams, parent streams, login
// requesters — each message once, and the Builder appends them after the read's own logs, also when the
// read stopped at a config-validation error.

type Obj = Record<string, unknown>;

/** HttpRequester fields marked deprecated in the CDK's schema, with its advice. */
const DEPRECATED_REQUESTER_FIELDS: Record<string, string> = {
  url_base: 'Use `url` field instead.',
  path: 'Use `url` field instead.',
  fetch_properties_from_endpoint: 'Use `query_properties` field instead.',
  request_body_data: 'Use `request_body` field instead.',
  request_body_json: 'Use `request_body` field instead.',
};

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The warnings for the resolved manifest's streams, in the order the reference builds their components. */
export function deprecationWarnings(manifest: Obj): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const obj = node as Obj;
    if (obj.type === 'HttpRequester') {
      for (const field of Object.keys(obj)) {
        const advice = DEPRECATED_REQUESTER_FIELDS[field];
        if (advice === undefined || obj[field] === undefined || obj[field] === null) continue;
        const message = `Component type: \`HttpRequester\`. Field '${field}' is deprecated. ${advice}`;
        if (!out.includes(message)) out.push(message);
      }
    }
    // A stream builds its partition router (parent streams) before its retriever.
    const retriever = obj.retriever;
    if (isObj(retriever) && retriever.partition_router !== undefined) visit(retriever.partition_router, depth + 1);
    for (const key of Object.keys(obj)) if (!key.startsWith('$')) visit(obj[key], depth + 1);
  };
  if (Array.isArray(manifest.streams)) visit(manifest.streams, 0);
  return out;
}
