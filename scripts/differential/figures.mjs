// The harness's figures: what issue 13's acceptance asks for, from the per-stream results of one or
// more runs (shards). Every stream of every manifest counts once; a stream seen in several reports
// (a re-run with --only) counts with its latest result.

/** Whether the manifest makes this stream page or slice (so one page and one slice prove little). */
export function shapeOf(stream) {
  const retriever = stream?.retriever ?? {};
  const paginator = retriever.paginator;
  const paginates = Boolean(paginator && paginator.type !== 'NoPagination');
  const router = retriever.partition_router;
  const routed = Array.isArray(router) ? router.length > 0 : Boolean(router && router.type);
  const cursor = stream?.incremental_sync;
  const windows = Boolean(cursor && cursor.type === 'DatetimeBasedCursor' && cursor.step);
  return { paginates, slices: routed || windows };
}

/** A reference failure's reason, in a few words that group alike failures. */
export function failureReason(entry) {
  const why = String(entry.referenceError?.message ?? entry.reasons?.[0] ?? '');
  if (/reference sent no request/.test(why)) return 'reference sent no request';
  if (/timed out/.test(why)) return 'reference timed out';
  if (/Validation against json schema defined in declarative_component_schema/.test(why))
    return 'reference refused the manifest (schema validation)';
  if (/Config validation error/.test(why)) return 'reference refused the made-up config (spec validation)';
  if (/does not match format|time data/.test(why)) return 'reference could not parse a made-up config date';
  if (/Custom connector code is not permitted/.test(why)) return 'custom Python elsewhere in the manifest';
  if (/reference process exited|unreadable answer/.test(why)) return 'reference process failed';
  const inner = why.replace(/^reference: /, '').replace(/^Error reading stream: /, '');
  return `reference failed: ${inner
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 80)}`;
}

/**
 * The counts: identical through ≥2 pages or slices (or identical where the stream neither pages nor
 * slices), identical but shallower than that, different, failures of the reference by reason, both
 * failed, out of scope.
 */
export function figuresOf(results) {
  const latest = new Map();
  for (const r of results) latest.set(`${r.connector}\u0000${r.stream}`, r);
  const all = [...latest.values()];
  const count = (pred) => all.filter(pred).length;
  const deep = (r) => r.depth >= 2 || (r.paginates === false && r.slices === false);
  const byReason = {};
  for (const r of all)
    if (r.status === 'reference_failed' || r.status === 'both_failed') {
      const k = failureReason(r);
      byReason[k] = (byReason[k] ?? 0) + 1;
    }
  const firstDifferences = {};
  for (const r of all)
    if (r.status === 'different') {
      const k = String(r.reasons?.[0] ?? '')
        .replace(/'[^']*'/g, "'…'")
        .replace(/\d+/g, 'N')
        .slice(0, 90);
      firstDifferences[k] = (firstDifferences[k] ?? 0) + 1;
    }
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort((a, b) => b[1] - a[1]));
  return {
    streams: all.length,
    manifests: new Set(all.map((r) => r.connector)).size,
    outOfScope: count((r) => r.status === 'out_of_scope'),
    inScope: count((r) => r.status !== 'out_of_scope'),
    notCovered: count((r) => r.status === 'not_covered'),
    identicalDeep: count((r) => r.status === 'identical' && deep(r)),
    identicalShallow: count((r) => r.status === 'identical' && !deep(r)),
    different: count((r) => r.status === 'different'),
    referenceFailed: count((r) => r.status === 'reference_failed'),
    bothFailed: count((r) => r.status === 'both_failed'),
    referenceFailuresByReason: sorted(byReason),
    firstDifferences: sorted(firstDifferences),
  };
}

/** The figures as a few readable lines. */
export function printFigures(f, top = 25) {
  const lines = [
    `${f.streams} streams of ${f.manifests} manifests; ${f.outOfScope} out of scope (custom Python), ${f.inScope} in scope`,
    `identical through ≥2 pages or slices (or neither paging nor slicing): ${f.identicalDeep}`,
    `identical, but only one page and one slice of a paging or slicing stream: ${f.identicalShallow}`,
    `different: ${f.different}; reference failed: ${f.referenceFailed}; both failed: ${f.bothFailed}; not covered by the synthetic API (async jobs): ${f.notCovered}`,
    'reference failures by reason:',
    ...Object.entries(f.referenceFailuresByReason)
      .slice(0, top)
      .map(([k, n]) => `${String(n).padStart(5)}  ${k}`),
    'most frequent first differences:',
    ...Object.entries(f.firstDifferences)
      .slice(0, top)
      .map(([k, n]) => `${String(n).padStart(5)}  ${k}`),
  ];
  return lines.join('\n');
}
