// Benchmark: the results view's script (out/webview/results.js, built) in headless Chromium, given a
// result of one page of 100 records × 2,000 fields: milliseconds from posting the message to the
// painted frame that shows the table's 100 rows, and how many header cells it built. Pass another
// build's results.js to compare. Chromium: CHROMIUM, else /usr/bin/chromium (the e2e tooling's).
// Usage: npm run build && node bench/resultsView.mjs [path/to/results.js]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = createRequire(import.meta.url)('playwright-core');
const scriptPath = process.argv[2] ?? join(root, 'out/webview/results.js');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setContent(
    '<!DOCTYPE html><html><body><div id="root"></div><script>window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });</script></body></html>',
  );
  await page.addScriptTag({ content: readFileSync(scriptPath, 'utf8') });
  const r = await page.evaluate(async () => {
    const records = Array.from({ length: 100 }, (_, i) =>
      Object.fromEntries(Array.from({ length: 2000 }, (_, k) => [`field_${k}`, `r${i}k${k}`])),
    );
    window.postMessage({ type: 'start', stream: 'wide', limits: {} }, '*');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t = performance.now();
    window.postMessage(
      { type: 'result', result: { slices: [{ pages: [{ records, request: {}, response: { status: 200, body: '{}' } }] }], logs: [] } },
      '*',
    );
    await new Promise((resolve) => {
      const poll = () =>
        document.querySelectorAll('table.records tbody tr').length >= 100 ? requestAnimationFrame(() => resolve()) : setTimeout(poll, 5);
      poll();
    });
    return { ms: Math.round(performance.now() - t), headers: document.querySelectorAll('table.records thead th').length };
  });
  console.log(`${scriptPath}: 100 records × 2,000 fields on screen after ${r.ms} ms (${r.headers} header cells built)`);
} finally {
  await browser.close();
}
