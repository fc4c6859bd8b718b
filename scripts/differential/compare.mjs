// Compares two test reads of one stream: the reference's and ours. What reached the wire is taken from
// the synthesized API's log (so both sides are judged the same way), records and slices from each
// StreamRead. The result is a status and the list of differences, each a short readable reason.

// Headers every HTTP client sets its own way; everything else (credentials, custom headers, content
// type) must match.
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

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  return value;
}
const text = (v) => JSON.stringify(canonical(v));

function normalizeBody(body, contentType) {
  if (body === null || body === undefined || body === '') return null;
  if (/json/.test(contentType ?? '') || /^\s*[[{]/.test(body)) {
    try {
      return text(JSON.parse(body));
    } catch {
      /* not JSON after all */
    }
  }
  if (/x-www-form-urlencoded/.test(contentType ?? ''))
    return [...new URLSearchParams(body)]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
  return body;
}

/** The wire requests of a read, normalized: method, path, sorted query, body, relevant headers. */
export function wireRequests(exchanges) {
  return exchanges.map((e) => {
    const url = new URL(e.url, 'http://x');
    const query = [...url.searchParams]
      .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const headers = Object.fromEntries(
      Object.entries(e.headers ?? {})
        .filter(([k]) => !CLIENT_HEADERS.has(k.toLowerCase()))
        .map(([k, v]) => [k.toLowerCase(), k.toLowerCase() === 'content-type' ? String(v).split(';')[0].trim() : String(v)])
        .sort(),
    );
    return { method: e.method, path: url.pathname, query, body: normalizeBody(e.body, e.headers?.['content-type']), headers };
  });
}

/** What a golden test checks of a StreamRead: slice descriptors, records per page, records, state. */
export function summaryOf(sr) {
  return {
    slices: (sr.slices ?? []).map((s) => ({
      slice_descriptor: s.slice_descriptor ?? null,
      pages: (s.pages ?? []).map((p) => (p.records ?? []).length),
      state: stateOf(Array.isArray(s.state) ? s.state[s.state.length - 1] : s.state) ?? null,
    })),
    records: (sr.slices ?? []).flatMap((s) => (s.pages ?? []).flatMap((p) => p.records ?? [])),
  };
}

function stateOf(message) {
  if (!message || typeof message !== 'object') return message ?? null;
  if (message.stream?.stream_state !== undefined) return message.stream.stream_state;
  if (message.global ?? message.global_) return message.global ?? message.global_;
  return message;
}

/**
 * A per-partition state's `lookback_window` is the duration of the read so far in whole seconds
 * (reference-incremental.md §7), different on every run of either side: any value ≥ 1 is the same
 * (0, before data was seen, still has to match).
 */
function withoutTiming(state) {
  if (!state || typeof state !== 'object' || Array.isArray(state)) return state;
  const perPartition = 'states' in state || 'use_global_cursor' in state || 'parent_state' in state;
  if (!perPartition || typeof state.lookback_window !== 'number' || state.lookback_window < 1) return state;
  return { ...state, lookback_window: '<the read so far, ≥ 1 s>' };
}

function slicesOf(sr) {
  return (sr.slices ?? []).map((s) => ({
    descriptor: text(s.slice_descriptor ?? null),
    pages: (s.pages ?? []).map((p) => (p.records ?? []).map(text)),
    state: text(withoutTiming(stateOf(Array.isArray(s.state) ? s.state[s.state.length - 1] : s.state))),
  }));
}

/**
 * The reference's failure, without the config and catalog its Connector Builder handler puts in front
 * of the real message ("Error reading stream with config={…} and catalog=…: <message>"), with the
 * end of its stack trace so that a report says where it failed.
 */
export function referenceFailure(ref) {
  const raw = String(ref?.__exception ?? ref?.__trace?.trace?.error?.message ?? '');
  const m = /^Error reading stream with config=[\s\S]*? and catalog=ConfiguredAirbyteCatalog\([\s\S]*\)\]\): ([\s\S]*)$/.exec(raw);
  const message = m ? `Error reading stream: ${m[1]}` : raw;
  const stack = String(ref?.__tb ?? ref?.__trace?.trace?.error?.stack_trace ?? '');
  return { message, stack: stack.slice(-1500) };
}

/** The first ERROR log of a read, with the end of its stack trace when it has one. */
export function firstError(read) {
  const log = (read?.logs ?? []).find((l) => l.level === 'ERROR');
  if (!log) return null;
  return { message: String(log.message), stack: String(log.stacktrace ?? log.stack_trace ?? '').slice(-1500) };
}

const describeRequest = (r) => `${r.method} ${r.path}${r.query ? '?' + r.query : ''}${r.body ? ' body ' + r.body.slice(0, 80) : ''}`;

/**
 * The same timing quirk for an AsyncRetriever: the reference's descriptor is the whole slice (partition and
 * cursor, logged when the partition was generated) of a slice whose own descriptor is its cursor part.
 */
function wholeSliceOf(refDescriptor, ourDescriptor) {
  let whole;
  let part;
  try {
    whole = JSON.parse(refDescriptor);
    part = JSON.parse(ourDescriptor);
  } catch {
    return false;
  }
  if (!whole || !part || typeof whole !== 'object' || typeof part !== 'object' || !Object.keys(part).length) return false;
  return Object.entries(part).every(([k, v]) => text(whole[k]) === text(v));
}

/**
 * The reference polls the running jobs of an AsyncRetriever in the order of a Python set
 * (AsyncJobOrchestrator._get_running_jobs): within a run of consecutive status polls the order is not
 * behaviour, so such a run is compared sorted.
 */
function pollRoundsSorted(exchanges, requests) {
  const out = [...requests];
  for (let i = 0; i < out.length; ) {
    let j = i;
    while (j < out.length && exchanges[j]?.asyncKind === 'poll') j++;
    if (j - i > 1) out.splice(i, j - i, ...out.slice(i, j).sort((x, y) => (text(x) < text(y) ? -1 : text(x) > text(y) ? 1 : 0)));
    i = Math.max(j, i + 1);
  }
  return out;
}

/**
 * @returns {{status: 'identical'|'different'|'reference_failed'|'both_failed', reasons: string[], depth: number}}
 */
export function compareReads(ref, refWire, ours, ourWire, { asyncRetriever = false } = {}) {
  const reasons = [];
  const refFailed = ref?.__exception || ref?.__trace;
  const ourFailed = ours?.__exception;
  const refError = refFailed ? referenceFailure(ref) : null;
  if (refFailed && ourFailed)
    return {
      status: 'both_failed',
      reasons: [`reference: ${refError.message.slice(0, 160)}`, `ours: ${String(ours.__exception).slice(0, 120)}`],
      depth: 0,
      referenceError: refError,
    };
  if (refFailed)
    return {
      status: 'reference_failed',
      reasons: [`reference: ${refError.message.slice(0, 160)}`, ...(ours ? [`ours read ${(ours.slices ?? []).length} slices`] : [])],
      depth: 0,
      referenceError: refError,
    };
  if (ourFailed) return { status: 'different', reasons: [`ours failed to build: ${String(ours.__exception).slice(0, 160)}`], depth: 0 };

  const a = pollRoundsSorted(refWire, wireRequests(refWire));
  const b = pollRoundsSorted(ourWire, wireRequests(ourWire));
  if (a.length !== b.length) reasons.push(`requests: reference sent ${a.length}, ours ${b.length}`);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x.method !== y.method || x.path !== y.path || x.query !== y.query) {
      reasons.push(`request ${i + 1}: reference ${describeRequest(x)} / ours ${describeRequest(y)}`);
      break;
    }
    if (x.body !== y.body) {
      reasons.push(`request ${i + 1} body: reference ${String(x.body).slice(0, 100)} / ours ${String(y.body).slice(0, 100)}`);
      break;
    }
    const hx = text(x.headers);
    const hy = text(y.headers);
    if (hx !== hy) {
      reasons.push(`request ${i + 1} headers: reference ${hx.slice(0, 120)} / ours ${hy.slice(0, 120)}`);
      break;
    }
  }
  if (reasons.length && a.length === b.length) {
    const sorted = (list) =>
      list
        .map((r) => text(r))
        .sort()
        .join('\n');
    if (sorted(a) === sorted(b)) reasons.splice(0, reasons.length, 'same requests in another order');
  }

  const sa = slicesOf(ref);
  const sb = slicesOf(ours);
  if (sa.length !== sb.length) reasons.push(`slices: reference ${sa.length}, ours ${sb.length}`);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    // The reference pairs a slice with the latest slice log, which its main thread may already have
    // written for a later partition (reference-incremental.md §6.1): a descriptor of another slice of
    // the same read is that timing quirk, not a difference.
    if (
      sa[i].descriptor !== sb[i].descriptor &&
      !sb.some((s) => s.descriptor === sa[i].descriptor || (asyncRetriever && wholeSliceOf(sa[i].descriptor, s.descriptor)))
    ) {
      reasons.push(`slice ${i + 1} descriptor: reference ${sa[i].descriptor.slice(0, 100)} / ours ${sb[i].descriptor.slice(0, 100)}`);
      break;
    }
    if (sa[i].pages.length !== sb[i].pages.length) {
      reasons.push(`slice ${i + 1}: reference ${sa[i].pages.length} pages, ours ${sb[i].pages.length}`);
      break;
    }
    const recA = sa[i].pages.flat();
    const recB = sb[i].pages.flat();
    if (recA.length !== recB.length) {
      reasons.push(`slice ${i + 1}: reference ${recA.length} records, ours ${recB.length}`);
      break;
    }
    const diff = recA.findIndex((r, j) => r !== recB[j]);
    if (diff >= 0) {
      reasons.push(`slice ${i + 1} record ${diff + 1}: reference ${recA[diff].slice(0, 100)} / ours ${recB[diff].slice(0, 100)}`);
      break;
    }
    if (sa[i].state !== sb[i].state) {
      reasons.push(`slice ${i + 1} state: reference ${sa[i].state.slice(0, 100)} / ours ${String(sb[i].state).slice(0, 100)}`);
      break;
    }
  }
  const errA = (ref.logs ?? []).filter((l) => l.level === 'ERROR').length > 0;
  const errB = (ours.logs ?? []).filter((l) => l.level === 'ERROR').length > 0;
  if (errA !== errB)
    reasons.push(
      errA
        ? `reference logged an error: ${String((ref.logs ?? []).find((l) => l.level === 'ERROR')?.message).slice(0, 120)}`
        : `ours logged an error: ${String((ours.logs ?? []).find((l) => l.level === 'ERROR')?.message).slice(0, 120)}`,
    );
  const depth = Math.max(sa.length, ...sa.map((s) => s.pages.length), 0);
  const extra = errA ? { referenceError: firstError(ref) } : {};
  if (a.length === 0 && !reasons.length) return { status: 'reference_failed', reasons: ['reference sent no request'], depth, ...extra };
  return { status: reasons.length ? 'different' : 'identical', reasons, depth, ...extra };
}
