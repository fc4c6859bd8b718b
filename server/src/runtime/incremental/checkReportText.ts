// The incremental check's report as plain text: what the cursor is, what each read did and ended with,
// one line per rule, then each violation with the records and requests behind it. Used by the CLI and the
// editor's report view alike.
import type { IncrementalCheckReport } from './incrementalCheck';

/** Offending records or requests shown per violation (the JSON report lists up to MAX_LISTED). */
const SHOWN = 5;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line describing the stream's cursor (`DatetimeBasedCursor on updated_at (%Y-%m-%d), per partition`). */
export function cursorLine(report: IncrementalCheckReport): string {
  const c = report.cursor;
  if (!c || c.kind === 'none') return 'no incremental_sync';
  const what =
    c.kind === 'count' ? `IncrementingCountCursor on ${c.cursorField}` : `DatetimeBasedCursor on ${c.cursorField} (${c.datetimeFormat})`;
  const layout = c.layout === 'per_partition' ? ', state per partition' : c.layout === 'global' ? ', global state' : '';
  return `${what}${c.lookbackWindow ? `, lookback ${c.lookbackWindow}` : ''}${layout}${c.parents.length ? `, parent state of ${c.parents.map((p) => p.stream).join(', ')}` : ''}`;
}

/** The whole report as text lines (no trailing newline). */
export function formatCheckReport(report: IncrementalCheckReport): string {
  const lines: string[] = [];
  lines.push(`Incremental check of stream '${report.stream}': ${cursorLine(report)}`);
  if (!report.incremental) {
    lines.push(`Stream '${report.stream}' is not incremental (no incremental_sync): nothing to check.`);
    return lines.join('\n');
  }
  for (const r of report.reads) {
    const from = r.read === 1 ? (r.input_state ? 'from the given state' : 'no input state') : `from read ${r.read - 1}'s final state`;
    lines.push(
      `  read ${r.read} (${from}): ${plural(r.records, 'record')}, ${plural(r.pages, 'page')}, ${plural(r.slices, 'slice')} → state ${r.final_state ? JSON.stringify(r.final_state) : 'none'}`,
    );
  }
  for (const c of report.checks) lines.push(`${c.holds ? '✓' : '✗'} ${c.detail}`);
  for (const v of report.violations) {
    lines.push(`VIOLATION ${v.rule}: ${v.message}`);
    for (const r of v.records.slice(0, SHOWN))
      lines.push(
        `    record ${r.key} ${report.cursor?.cursorField}=${JSON.stringify(r.cursor_value)} < ${r.bound} (read ${r.read}, slice ${r.slice}, page ${r.page}: ${r.request})`,
      );
    for (const q of v.requests.slice(0, SHOWN))
      lines.push(`    request ${q.request} (read ${q.read}, slice ${q.slice}) starts at ${q.window_start} < ${q.bound}`);
    const listed = Math.min(SHOWN, v.records.length) + Math.min(SHOWN, v.requests.length);
    if (listed && v.count > listed) lines.push(`    … and ${v.count - listed} more`);
  }
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  lines.push(report.holds ? 'Incremental sync holds.' : `Incremental sync is broken: ${plural(report.violations.length, 'violation')}.`);
  return lines.join('\n');
}
