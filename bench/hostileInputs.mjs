// Benchmark: the CPU time of every hostile input of test/fuzz (each in its own process, as the test
// runs them), as a ratio to a baseline run in the same run: validating a large but ordinary
// manifest (200 streams with requesters, paginators and cursors). The budget the inputs were bounded
// to is 5 s of CPU on the 2-core machine; inputs above 5× the baseline (≈ 5 s on that machine) are named, and the
// slowest ten are listed. HOSTILE_ONLY=<substring> narrows the inputs.
// Usage: npm run build && node bench/hostileInputs.mjs
import { tsImport } from 'tsx/esm/api';

const { hostileInputs } = await tsImport('../test/fuzz/hostileInputs.ts', import.meta.url);
const { runIsolated } = await tsImport('../test/fuzz/runIsolated.ts', import.meta.url);

function ordinaryManifest(streams) {
  const lines = ['version: 6.44.0', 'type: DeclarativeSource', 'check: {type: CheckStream, stream_names: [s0]}', 'streams:'];
  for (let i = 0; i < streams; i++) {
    lines.push(
      `  - type: DeclarativeStream`,
      `    name: s${i}`,
      `    primary_key: id`,
      `    retriever:`,
      `      type: SimpleRetriever`,
      `      requester: {type: HttpRequester, url_base: "https://api.example.com", path: "/v1/items${i}", http_method: GET, authenticator: {type: BearerAuthenticator, api_token: "{{ config['token'] }}"}, request_parameters: {per_page: "100"}}`,
      `      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: [data]}}`,
      `      paginator: {type: DefaultPaginator, page_token_option: {type: RequestOption, inject_into: request_parameter, field_name: cursor}, pagination_strategy: {type: CursorPagination, cursor_value: "{{ response.next }}", stop_condition: "{{ not response.next }}"}}`,
      `    incremental_sync: {type: DatetimeBasedCursor, cursor_field: updated_at, datetime_format: "%Y-%m-%dT%H:%M:%SZ", start_datetime: "{{ config['start_date'] }}", end_datetime: "{{ now_utc().strftime('%Y-%m-%dT%H:%M:%SZ') }}", step: P30D, cursor_granularity: PT1S}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const baselineInput = { kind: 'manifest', name: 'baseline: 200 ordinary streams', text: ordinaryManifest(200) };
const runs = 3;
let baseline = Infinity;
for (let i = 0; i < runs; i++) baseline = Math.min(baseline, (await runIsolated(baselineInput)).cpuMs);
console.log(`baseline (${baselineInput.name}, best of ${runs}): ${baseline} ms CPU`);

const inputs = hostileInputs().filter((i) => !process.env.HOSTILE_ONLY || i.name.includes(process.env.HOSTILE_ONLY));
const rows = [];
for (const input of inputs) {
  try {
    const r = await runIsolated(input);
    rows.push({ name: `${input.kind}: ${input.name}`, cpuMs: r.cpuMs, mb: r.maxRssMb, ratio: r.cpuMs / Math.max(1, baseline) });
  } catch (e) {
    rows.push({ name: `${input.kind}: ${input.name}`, cpuMs: NaN, mb: NaN, ratio: Infinity, failed: e.message });
  }
}
rows.sort((a, b) => b.ratio - a.ratio);
console.log(`\n${inputs.length} hostile inputs; slowest ten (CPU as a multiple of the baseline):`);
for (const r of rows.slice(0, 10))
  console.log(
    `  ${r.ratio === Infinity ? 'failed' : `${r.ratio.toFixed(1)}×`.padStart(7)}  ${String(r.cpuMs).padStart(6)} ms  ${String(r.mb).padStart(4)} MB  ${r.name}${r.failed ? ` (${r.failed})` : ''}`,
  );
const over = rows.filter((r) => r.ratio > 5);
console.log(`${over.length} input(s) above 5× the baseline${over.length ? `: ${over.map((r) => r.name).join('; ')}` : ''}`);
