// How the results view reads a StreamRead: which test-read limit stopped it, which component of the
// stream an error belongs to (from the source-mapped stack and the message), and a readable stack.
// No vscode import: the results webview script and the unit tests use it too.
import type { StreamComponentKind } from '../../server/src/protocol';

export type Limits = { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
type SliceLike = { pages?: Array<{ records?: unknown[] }> };
/** The limit that ended a read, with the value it had. */
export type LimitHit = { limit: 'records' | 'pages per slice' | 'slices'; value: number };

/** The limits a read reached, by the rules of `test_read_limit_reached` (airbyte_cdk/connector_builder/test_reader/reader.py). */
export function limitsReached(slices: SliceLike[], limits: Limits): LimitHit[] {
  const out: LimitHit[] = [];
  const records = slices.reduce((n, s) => n + (s.pages ?? []).reduce((m, p) => m + (p.records ?? []).length, 0), 0);
  if (limits.maxRecords !== undefined && records >= limits.maxRecords) out.push({ limit: 'records', value: limits.maxRecords });
  if (limits.maxPagesPerSlice !== undefined && slices.some((s) => (s.pages ?? []).length >= limits.maxPagesPerSlice!))
    out.push({ limit: 'pages per slice', value: limits.maxPagesPerSlice });
  if (limits.maxSlices !== undefined && slices.length >= limits.maxSlices) out.push({ limit: 'slices', value: limits.maxSlices });
  return out;
}

/** The banner text for the limits reached (or the generic one when the limits used are unknown). */
export function limitBanner(hits: LimitHit[]): string {
  const named = hits.map((h) =>
    h.limit === 'records'
      ? `the record limit (${h.value} records)`
      : h.limit === 'slices'
        ? `the slice limit (${h.value} slices)`
        : `the page limit (${h.value} pages per slice)`,
  );
  const what = named.length ? `Stopped at ${named.join(' and ')}` : 'A test-read limit was reached';
  return `${what}: the stream may have more data. Raise the limits with “Run with limits…” or the airbyte.testRead.* settings.`;
}

/** The words the progress toast and the results view both use for a running read. */
export function readProgressText(pages: number, records: number): string {
  return `${pages} page${pages === 1 ? '' : 's'}, ${records} record${records === 1 ? '' : 's'} so far`;
}

/** A slice descriptor in one line (`{}`, the unpartitioned quirk of §10.4, is no descriptor). */
export function describeSlice(desc: unknown): string {
  if (desc === undefined || desc === null || desc === '{}') return '';
  if (typeof desc === 'string') return desc;
  if (typeof desc === 'object') {
    const entries = Object.entries(desc as Record<string, unknown>);
    return entries.map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ');
  }
  return String(desc);
}

/**
 * What the State tab shows for one slice: its descriptor, and the state after it — the stream state
 * of the (last) AirbyteStateMessage in the slice's `state` (STREAM, GLOBAL or LEGACY form), with the
 * whole message for reference. Null parts mean "none".
 */
export function sliceStateView(slice: { slice_descriptor?: unknown; state?: unknown[] }): {
  descriptor: string | null;
  state: string | null;
  message: string | null;
} {
  const desc = slice.slice_descriptor;
  const descriptor = describeSlice(desc) ? (typeof desc === 'string' ? desc : JSON.stringify(desc, null, 2)) : null;
  const messages = Array.isArray(slice.state) ? slice.state : [];
  const last = messages[messages.length - 1] as Record<string, unknown> | undefined;
  if (!last) return { descriptor, state: null, message: null };
  const stream = last.stream as Record<string, unknown> | undefined;
  // The CDK serialises the GLOBAL form as `global_` (a Python field name); `global` in the protocol.
  const global = (last.global ?? last.global_) as Record<string, unknown> | undefined;
  const inner = stream?.stream_state ?? global?.shared_state ?? global?.stream_states ?? last.data ?? last;
  return { descriptor, state: JSON.stringify(inner, null, 2), message: inner === last ? null : JSON.stringify(last, null, 2) };
}

/** A page's `pagination_trace` as the runtime sends it (runtime/testRead/paginationTrace.ts). */
export type PaginationTraceLike = {
  token_in?: unknown;
  token_out?: unknown;
  record_count?: number;
  next_requested?: boolean;
  stop_reason?: string | null;
};

/** A page token in a few characters: `∅` for none, long ones cut in the middle (full text in `full`). */
export function shortToken(value: unknown, max = 28): { text: string; full: string } {
  if (value === null || value === undefined) return { text: '∅', full: 'no token' };
  const full = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (full.length <= max) return { text: full, full };
  const head = Math.ceil((max - 1) / 2);
  return { text: `${full.slice(0, head)}…${full.slice(full.length - (max - 1 - head))}`, full };
}

/**
 * The trace line beside a page: "token in → token out", "N records", and "next page: requested" or
 * "stopped: <reason>". `title` holds the whole tokens, for a tooltip in a narrow pane.
 */
export function paginationTraceView(t: PaginationTraceLike): {
  tokens: string;
  records: string;
  next: string;
  stopped: boolean;
  title: string;
} {
  const tokenIn = shortToken(t.token_in);
  const tokenOut = shortToken(t.token_out);
  const n = t.record_count ?? 0;
  const stopped = t.next_requested !== true;
  return {
    tokens: `${tokenIn.text} → ${tokenOut.text}`,
    records: `${n} record${n === 1 ? '' : 's'}`,
    next: stopped ? `stopped: ${t.stop_reason ?? 'no reason given'}` : 'next page: requested',
    stopped,
    title: `token in: ${tokenIn.full}\ntoken out: ${tokenOut.full}`,
  };
}

/** Source folders of the runtime → the component an error thrown there belongs to. */
const FRAME_COMPONENTS: Array<[RegExp, StreamComponentKind]> = [
  [/runtime[\\/]auth[\\/]/, 'authenticator'],
  [/runtime[\\/]pagination[\\/]/, 'paginator'],
  [/runtime[\\/]testRead[\\/](partitions|groupingPartitionRouter)\.ts/, 'partition_router'],
  [/runtime[\\/]testRead[\\/](datetimeCursor|streamCursor|incrementingCountCursor)\.ts/, 'incremental_sync'],
  [/runtime[\\/]records[\\/]/, 'record_selector'],
];
const AUTH_FAILURE =
  /\b(401|403)\b|unauthori[sz]ed|forbidden|invalid_grant|invalid_client|refresh[_ ]token|access[_ ]token|token refresh|credentials/i;

/**
 * The component an ERROR log entry of a read points at: the deepest stream component whose code is on
 * the (source-mapped) stack, else the authenticator for credential failures (401/403, invalid_grant),
 * else the requester for HTTP failures. Undefined when nothing says (the stream itself is blamed).
 */
export function failedComponent(entry: { message?: string | null; stacktrace?: string | null }): StreamComponentKind | undefined {
  const frames = (entry.stacktrace ?? '').split('\n').filter((l) => /^\s*at /.test(l));
  for (const frame of frames) {
    for (const [re, kind] of FRAME_COMPONENTS) if (re.test(frame)) return kind;
  }
  const message = entry.message ?? '';
  if (AUTH_FAILURE.test(message)) return 'authenticator';
  if (/pagina|next_page_token|page token/i.test(message)) return 'paginator';
  if (frames.some((f) => /runtime[\\/]http[\\/]/.test(f)) || /\bHTTP\b|status \d{3}/.test(message)) return 'requester';
  return undefined;
}

/** How a component is named to the user. */
export const COMPONENT_LABEL: Record<StreamComponentKind, string> = {
  authenticator: 'authenticator',
  paginator: 'paginator',
  requester: 'requester',
  record_selector: 'record selector',
  partition_router: 'partition router',
  incremental_sync: 'incremental sync',
  schema_loader: 'schema loader',
};

/**
 * A stack trace as the user reads it: the message line, then frames mapped to the TypeScript sources
 * (paths from `server/src/` or `client/src/` on), without Node internals or dependency frames. Frames of
 * a minified bundle are never shown; `mapped` is false when no frame could be mapped to a source.
 */
export function readableStack(stack: string): { text: string; mapped: boolean } {
  const lines = stack.split('\n');
  const head = lines.filter((l) => !/^\s*at /.test(l)).slice(0, 3);
  const frames: string[] = [];
  for (const line of lines) {
    if (!/^\s*at /.test(line)) continue;
    if (/node:|node_modules|\(<anonymous>\)/.test(line)) continue;
    const m = /((?:server|client)[\\/]src[\\/][^):]+\.ts:\d+(?::\d+)?)/.exec(line);
    if (!m) continue;
    const fn = /^\s*at (?:async )?([^\s(]+) \(/.exec(line)?.[1];
    frames.push(`  at ${fn ? `${fn} ` : ''}(${m[1].replace(/\\/g, '/')})`);
  }
  return { text: [...head, ...frames].join('\n'), mapped: frames.length > 0 };
}
