// The readiness report of a run of all streams, in the format a file's extension asks for: Markdown
// (`.md`, a table a person reads in a pull request), JSON (`.json`, the result object) or JUnit XML
// (`.xml`, one testcase per stream, failing with the stream's error). Pure.
import type { AllStreamsResult, StreamRunSummary } from './runAllStreams';
import { junitXml } from './junitXml';

export type ReportFormat = 'markdown' | 'json' | 'junit';

/** The format of a report file by its extension; null for an extension none matches. */
export function reportFormatOf(file: string): ReportFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'markdown';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.xml')) return 'junit';
  return null;
}

/** The report text of `result` for the manifest called `manifest` (its file name). */
export function formatReadinessReport(result: AllStreamsResult, manifest: string, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify({ manifest, ...result }, null, 2)}\n`;
  if (format === 'junit') {
    return junitXml(
      `connector-manifest read --all-streams ${manifest}`,
      result.streams.map((s) => ({
        name: s.stream,
        classname: manifest,
        timeSeconds: s.time_ms / 1000,
        failure: s.status === 'failed' ? { message: s.errors[0] ?? 'the read failed', details: s.errors.join('\n') } : null,
        output: summaryLine(s),
      })),
    );
  }
  return markdownReport(result, manifest);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** `12 records, 2 pages, 1 slice …`: one stream in a line (JUnit system-out, the CLI's pretty output). */
export function summaryLine(s: StreamRunSummary): string {
  const parts = [plural(s.records, 'record'), plural(s.pages, 'page'), plural(s.slices, 'slice')];
  if (s.errors.length) parts.push(plural(s.errors.length, 'error'));
  if (s.retries) parts.push(plural(s.retries, 'retry', 'retries'));
  if (s.schema_differences?.length) parts.push(plural(s.schema_differences.length, 'schema difference'));
  const formats = Object.entries(s.datetime_formats);
  if (formats.length) parts.push(`datetime formats: ${formats.map(([k, f]) => `${k} ${f}`).join(', ')}`);
  parts.push(`${(s.time_ms / 1000).toFixed(2)} s`);
  return parts.join(', ');
}

function markdownReport(result: AllStreamsResult, manifest: string): string {
  const failed = result.streams.filter((s) => s.status === 'failed').length;
  const lines = [
    `# Readiness of \`${manifest}\``,
    '',
    `${plural(result.streams.length, 'stream')}, ${failed} failed, read ${result.concurrency} at a time in ${(result.time_ms / 1000).toFixed(1)} s.`,
    '',
  ];
  if (result.listing_error) lines.push(`**The dynamic streams could not be resolved**: ${cell(result.listing_error)}`, '');
  lines.push('| stream | status | records | pages | slices | errors | retries | schema differences | datetime formats | time |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const s of result.streams) {
    const formats = Object.entries(s.datetime_formats)
      .map(([k, f]) => `\`${k}\`: \`${f}\``)
      .join(', ');
    lines.push(
      `| ${cell(s.stream)}${s.dynamic ? ' (dynamic)' : ''} | ${s.status === 'failed' ? '❌ failed' : s.status === 'empty' ? '⚠️ no records' : '✅ ok'}${s.limit_reached ? ' (limit reached)' : ''} | ${s.records} | ${s.pages} | ${s.slices} | ${s.errors.length} | ${s.retries} | ${s.schema_differences === null ? '–' : s.schema_differences.length} | ${cell(formats) || '–'} | ${(s.time_ms / 1000).toFixed(2)} s |`,
    );
  }
  const withErrors = result.streams.filter((s) => s.errors.length);
  if (withErrors.length) {
    lines.push('', '## Errors', '');
    for (const s of withErrors) lines.push(`- **${cell(s.stream)}**: ${cell(s.errors[0])}`);
  }
  const withDiffs = result.streams.filter((s) => s.schema_differences?.length);
  if (withDiffs.length) {
    lines.push('', '## Schema differences', '');
    for (const s of withDiffs) for (const d of s.schema_differences ?? []) lines.push(`- **${cell(s.stream)}**: ${cell(d.message)}`);
  }
  return `${lines.join('\n')}\n`;
}
