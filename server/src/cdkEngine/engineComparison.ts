// Compares the StreamReads of one stream read on the two engines: requests (method, URL, body and the
// headers a connector sets), responses (status, body), records page by page, slices, state, the
// inferred schema, whether a limit was reached, and the warnings and errors logged. Every difference is
// listed with both values. Pure: no I/O.
import type { StreamRead } from '../runtime';

export type DifferenceArea = 'requests' | 'records' | 'slices' | 'state' | 'logs' | 'schema' | 'limits';
export type EngineDifference = { area: DifferenceArea; where: string; builtin: unknown; cdk: unknown };
/** `notes`: differences by design, documented in docs/engines.md, that are not counted (e.g. reading past the record limit). */
export type EngineComparison = {
  identical: boolean;
  differences: EngineDifference[];
  notes: string[];
  counts: { builtin: ReadCounts; cdk: ReadCounts };
};
export type ReadCounts = { slices: number; pages: number; records: number; requests: number };

// Headers each HTTP client sets its own way; the ones a connector sets (credentials, custom headers) must match.
const CLIENT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'user-agent',
  'accept-encoding',
  'accept',
  'transfer-encoding',
  'keep-alive',
]);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function jsonOrText(body: string | null | undefined): unknown {
  if (body === null || body === undefined || body === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function sortedQuery(url: string): string {
  try {
    const u = new URL(url);
    const q = [...u.searchParams]
      .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    return `${u.origin}${u.pathname}${q ? `?${q}` : ''}`;
  } catch {
    return url;
  }
}

type ShownRequest = { url: string; http_method: string; body: string | null; headers: Record<string, string> | null };
function requestView(r: ShownRequest | null) {
  if (!r) return null;
  const headers = Object.fromEntries(
    Object.entries(r.headers ?? {})
      .filter(([k]) => !CLIENT_HEADERS.has(k.toLowerCase()))
      .map(([k, v]) => [k.toLowerCase(), k.toLowerCase() === 'content-type' ? String(v).split(';')[0].trim() : String(v)]),
  );
  return { method: r.http_method.toUpperCase(), url: sortedQuery(r.url), body: jsonOrText(r.body), headers };
}

// `{"type": ["number"]}` and `{"type": "number"}` say the same (the CDK writes a primary key's type
// without the list); compared as one.
function schemaView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schemaView);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      k === 'type' && Array.isArray(v) && v.length === 1 ? v[0] : schemaView(v),
    ]),
  );
}

/**
 * The CDK's read cut after the built-in read's last record, when the built-in read stopped at the
 * record limit: the CDK reads the rest of the page and on (it only reports the limit), the runtime
 * stops there by design (docs/runtime.md, Limits). Null when there is nothing to cut.
 */
function cutAtRecordLimit(
  builtin: StreamRead,
  cdk: StreamRead,
  maxRecords: number | undefined,
): { read: StreamRead; dropped: number } | null {
  const kept = countsOf(builtin).records;
  if (maxRecords === undefined || kept < maxRecords || countsOf(cdk).records <= kept) return null;
  let left = kept;
  let dropped = 0;
  const slices: StreamRead['slices'] = [];
  for (const slice of cdk.slices) {
    if (left === 0) {
      dropped += slice.pages.reduce((n, p) => n + p.records.length, 0);
      continue;
    }
    const pages: StreamRead['slices'][number]['pages'] = [];
    for (const page of slice.pages) {
      if (left === 0) {
        dropped += page.records.length;
        continue;
      }
      const records = page.records.slice(0, left);
      dropped += page.records.length - records.length;
      left -= records.length;
      pages.push({ ...page, records });
    }
    slices.push({ ...slice, pages });
  }
  return { read: { ...cdk, slices }, dropped };
}

function lastState(state: unknown[]): unknown {
  const m = state[state.length - 1] as { stream?: { stream_state?: unknown }; global?: unknown } | undefined;
  if (!m || typeof m !== 'object') return m ?? null;
  return m.stream?.stream_state ?? m.global ?? m;
}

/** Counts of a read (shown beside each side). */
export function countsOf(r: StreamRead): ReadCounts {
  const pages = r.slices.reduce((n, s) => n + s.pages.length, 0);
  return {
    slices: r.slices.length,
    pages,
    records: r.slices.reduce((n, s) => n + s.pages.reduce((k, p) => k + p.records.length, 0), 0),
    requests: pages + r.auxiliary_requests.length + r.slices.reduce((n, s) => n + s.auxiliary_requests.length, 0),
  };
}

/** The differences between a read on the built-in runtime and the same read on the CDK. */
export function compareEngineReads(builtin: StreamRead, cdkRead: StreamRead, limits: { maxRecords?: number } = {}): EngineComparison {
  const out: EngineDifference[] = [];
  const notes: string[] = [];
  const cdkCounts = countsOf(cdkRead);
  const cut = cutAtRecordLimit(builtin, cdkRead, limits.maxRecords);
  if (cut)
    notes.push(
      `The CDK read ${cut.dropped} more record${cut.dropped === 1 ? '' : 's'} past the record limit of ${limits.maxRecords} (it only reports the limit; the built-in runtime stops there by design): compared up to the built-in read's last record.`,
    );
  const cdk = cut?.read ?? cdkRead;
  const add = (area: DifferenceArea, where: string, a: unknown, b: unknown) => out.push({ area, where, builtin: a, cdk: b });

  if (builtin.slices.length !== cdk.slices.length) add('slices', 'number of slices', builtin.slices.length, cdk.slices.length);
  const n = Math.min(builtin.slices.length, cdk.slices.length);
  for (let i = 0; i < n; i++) {
    const a = builtin.slices[i];
    const b = cdk.slices[i];
    const s = `slice ${i + 1}`;
    if (!same(a.slice_descriptor, b.slice_descriptor)) add('slices', `${s} descriptor`, a.slice_descriptor, b.slice_descriptor);
    if (a.pages.length !== b.pages.length) add('slices', `${s}: number of pages`, a.pages.length, b.pages.length);
    for (let j = 0; j < Math.min(a.pages.length, b.pages.length); j++) {
      const p = `${s} page ${j + 1}`;
      const ra = requestView(a.pages[j].request);
      const rb = requestView(b.pages[j].request);
      if (!same(ra, rb)) add('requests', `${p} request`, ra, rb);
      const sa = a.pages[j].response;
      const sb = b.pages[j].response;
      if (sa?.status !== sb?.status) add('requests', `${p} response status`, sa?.status ?? null, sb?.status ?? null);
      else if (!same(jsonOrText(sa?.body), jsonOrText(sb?.body))) add('requests', `${p} response body`, sa?.body ?? null, sb?.body ?? null);
      const recA = a.pages[j].records;
      const recB = b.pages[j].records;
      if (recA.length !== recB.length) add('records', `${p}: number of records`, recA.length, recB.length);
      for (let k = 0; k < Math.min(recA.length, recB.length); k++) {
        if (!same(recA[k], recB[k])) add('records', `${p} record ${k + 1}`, recA[k], recB[k]);
      }
    }
    if (!same(lastState(a.state), lastState(b.state))) add('state', `${s} state`, lastState(a.state), lastState(b.state));
    const auxA = a.auxiliary_requests.map((x) => requestView(x.request));
    const auxB = b.auxiliary_requests.map((x) => requestView(x.request));
    if (!same(auxA, auxB)) add('requests', `${s} auxiliary requests`, auxA, auxB);
  }
  const auxA = builtin.auxiliary_requests.map((x) => ({
    title: x.title,
    request: requestView(x.request),
    status: x.response?.status ?? null,
  }));
  const auxB = cdk.auxiliary_requests.map((x) => ({ title: x.title, request: requestView(x.request), status: x.response?.status ?? null }));
  if (!same(auxA, auxB)) add('requests', 'auxiliary requests', auxA, auxB);
  if (builtin.test_read_limit_reached !== cdk.test_read_limit_reached)
    add('limits', 'test-read limit reached', builtin.test_read_limit_reached, cdk.test_read_limit_reached);
  if (!same(schemaView(builtin.inferred_schema), schemaView(cdk.inferred_schema)))
    add('schema', 'inferred schema', builtin.inferred_schema, cdk.inferred_schema);
  if (!same(builtin.inferred_datetime_formats, cdk.inferred_datetime_formats))
    add('schema', 'inferred datetime formats', builtin.inferred_datetime_formats, cdk.inferred_datetime_formats);
  // Informational logs differ by design (each engine narrates its own work); warnings and errors must not.
  const important = (r: StreamRead) =>
    r.logs
      .filter((l) => l.level === 'ERROR' || l.level === 'WARN' || l.level === 'WARNING')
      .map((l) => `${l.level === 'WARNING' ? 'WARN' : l.level}: ${l.message}`);
  const la = important(builtin);
  const lb = important(cdk);
  if (!same(la, lb)) add('logs', 'warnings and errors', la, lb);
  return { identical: out.length === 0, differences: out, notes, counts: { builtin: countsOf(builtin), cdk: cdkCounts } };
}

const shortJson = (v: unknown) => {
  const t = typeof v === 'string' ? v : JSON.stringify(v);
  return t === undefined ? 'undefined' : t.length > 200 ? `${t.slice(0, 200)}…` : t;
};

/** The comparison as text (the CLI's pretty output and the compare view's "as text"). */
export function formatEngineComparison(stream: string, c: EngineComparison): string {
  const side = (k: ReadCounts) => `${k.records} records, ${k.pages} pages, ${k.slices} slices, ${k.requests} requests`;
  const lines = [`Stream '${stream}': built-in runtime ${side(c.counts.builtin)}; Airbyte CDK ${side(c.counts.cdk)}`];
  if (c.identical) lines.push('Identical on both engines: requests, records, slices, state, inferred schema, warnings and errors.');
  else {
    lines.push(`${c.differences.length} difference${c.differences.length === 1 ? '' : 's'}:`);
    for (const d of c.differences)
      lines.push(`  [${d.area}] ${d.where}\n    built-in: ${shortJson(d.builtin)}\n    CDK:      ${shortJson(d.cdk)}`);
  }
  for (const n of c.notes) lines.push(`Note: ${n}`);
  return `${lines.join('\n')}\n`;
}
