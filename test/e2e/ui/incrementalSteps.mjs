// UI steps of the incremental lab and "Run all streams" (docs/incremental.md), on the demo's
// partitions.yaml: the readiness table of every stream, a row opening that stream's results, the
// input-state form of the incremental stream `events`, Run from state, Continue from final state with
// the chain of reads, the incremental check, and an inlay hint of a template's value after a read.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbench } from './workbench.mjs';

const FILE = 'demo/partitions.yaml';
const lens = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

/** Scrolls the active editor to the line that declares `name: <stream>`, so its lenses are rendered. */
async function revealLine(page, run, pattern) {
  const lines = readFileSync(join(run, 'workspace', FILE), 'utf8').split('\n');
  const at = lines.findIndex((l) => pattern.test(l));
  if (at < 0) throw new Error(`no line ${pattern} in ${FILE}`);
  await workbench(page).runCommand('Go to Line/Column...');
  await page.keyboard.type(`${at + 1}:1`);
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => {});
}

export const incrementalSteps = [
  {
    name: "Run all streams: the readiness table of partitions.yaml, a row opens that stream's results",
    async run({ page, shot, demoUrl, run }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page
        .locator('.tabs-container .tab')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => {});
      // The demo's testing values, beside the manifest, as in demo/workspace (imported from the prompt).
      const configFile = join(run, 'workspace', 'demo', 'config.json');
      writeFileSync(configFile, JSON.stringify({ url_base: demoUrl, start_date: '2024-01-01T00:00:00Z' }));
      try {
        await wb.openFile(FILE);
        await lens(page, 'Run all streams').waitFor({ timeout: 30_000 });
        await shot('40-run-all-streams-lens');
        await lens(page, 'Run all streams').click();
        // The prompt for testing values: a toast, or (when toasts are hidden) the notification center —
        // or none, when an earlier step already saved this manifest's testing values: the table opens at once.
        const toast = page.locator('.notifications-toasts .monaco-button', { hasText: 'Import config.json' }).first();
        const tableTab = page.locator('.tab', { hasText: 'All streams: demo/partitions.yaml' }).first();
        const first = await Promise.race([
          toast.waitFor({ timeout: 8_000 }).then(() => 'prompt'),
          tableTab.waitFor({ timeout: 8_000 }).then(() => 'table'),
        ]).catch(() => 'hidden');
        if (first !== 'table') {
          if (first === 'hidden') await wb.runCommand('Notifications: Show Notifications');
          await page.locator('.monaco-button', { hasText: 'Import config.json' }).first().click({ timeout: 20_000 });
          await wb.runCommand('Notifications: Clear All Notifications');
        }
        const table = await wb.webviewFrame('All streams: demo/partitions.yaml');
        await table.locator('#readiness-status', { hasText: /4 streams read 2 at a time/ }).waitFor({ timeout: 90_000 });
        for (const s of ['parents', 'children', 'items_by_category', 'events'])
          await table.locator(`tr[data-stream="${s}"] td.status-ok`).waitFor({ timeout: 5_000 });
        const progress = await table.locator('#readiness-progress').evaluate((p) => [p.value, p.max]);
        if (progress[0] !== 4 || progress[1] !== 4) throw new Error(`the progress bar shows ${progress.join('/')}, expected 4/4`);
        const events = await table.locator('tr[data-stream="events"] td').allTextContents();
        // records, pages, slices, errors, retries, schema differences, datetime formats, time
        if (
          events[2] !== '100' ||
          events[3] !== '5' ||
          events[4] !== '5' ||
          events[5] !== '0' ||
          !/created_at: %Y-%m-%dT%H:%M:%SZ/.test(events[8])
        )
          throw new Error(`the events row reads ${events.join(' | ')}`);
        await shot('41-readiness-table');
        await table.locator('tr[data-stream="events"]').click();
        const results = await wb.webviewFrame('Test read: events');
        await results.locator('#status', { hasText: /5 pages, 100 records in 5 slices/ }).waitFor({ timeout: 20_000 });
        await shot('42-readiness-row-opens-results');
      } finally {
        rmSync(configFile, { force: true });
      }
    },
  },
  {
    name: "the input-state form of events: a date-time in the cursor's format, Run from state, the chain",
    async run({ page, shot, run }) {
      const wb = workbench(page);
      await page.locator('.tab', { hasText: 'partitions.yaml' }).first().click();
      await revealLine(page, run, /^\s*name: events\s*$/);
      await lens(page, 'Input state…').click();
      const form = await wb.webviewFrame('Input state: events');
      await form
        .locator('#cursor-line', { hasText: 'DatetimeBasedCursor on created_at, format %Y-%m-%dT%H:%M:%SZ' })
        .waitFor({ timeout: 20_000 });
      // A value in another format is named before anything runs.
      await form.locator('#cursor-value').fill('2024-01-05');
      await form.locator('#cursor-value_error', { hasText: "not in the cursor's format %Y-%m-%dT%H:%M:%SZ" }).waitFor({ timeout: 5_000 });
      await shot('43-state-form-format-error');
      // The date/time picker writes the cursor's own format.
      await form.locator('#cursor-value_picker').fill('2024-01-05T03:00:00');
      const written = await form.locator('#cursor-value').inputValue();
      if (written !== '2024-01-05T03:00:00Z') throw new Error(`the picker wrote ${written}`);
      await shot('44-state-form-filled');
      await form.locator('#run-from-state').click();
      const results = await wb.webviewFrame('Test read: events');
      // Read from 2024-01-05T03:00:00Z: the first window starts there.
      await results
        .getByRole('tab', { name: /^State/ })
        .click()
        .catch(() => {});
      await results.locator('#status', { hasText: /5 slices/ }).waitFor({ timeout: 60_000 });
      await form.locator('.chain-read[data-read="1"]', { hasText: 'from the input state' }).waitFor({ timeout: 20_000 });
      await form.locator('.chain-read[data-read="1"]', { hasText: '"created_at":"2024-01-09T06:00:00Z"' }).waitFor({ timeout: 5_000 });
      await shot('45-run-from-state-chain');
      await shot('46-run-from-state-results');
    },
  },
  {
    name: 'Continue from final state in the results view: read 2 starts where read 1 ended',
    async run({ page, shot }) {
      const wb = workbench(page);
      await page.locator('.tab', { hasText: 'Test read: events' }).first().click();
      const results = await wb.webviewFrame('Test read: events');
      await results.locator('#continue-from-state').click();
      const form = await wb.webviewFrame('Input state: events');
      const second = form.locator('.chain-read[data-read="2"]', { hasText: "from read 1's final state" });
      await second.waitFor({ timeout: 60_000 });
      // Read 2 starts at read 1's state, inclusive: its first record is the one read 1 ended with.
      await second.locator('.added', { hasText: '51 new records' }).waitFor({ timeout: 5_000 });
      await second.getByText('of 52').waitFor({ timeout: 5_000 });
      await page.locator('.tab', { hasText: 'Input state: events' }).first().click();
      await shot('47-continue-chain');
      // The form's own Continue: read 3 from read 2's final state.
      await form.locator('#continue').click();
      await form.locator('.chain-read[data-read="3"]', { hasText: "from read 2's final state" }).waitFor({ timeout: 60_000 });
      await shot('48-continue-again-chain');
    },
  },
  {
    name: 'the incremental check lens reports that events holds',
    async run({ page, shot, run }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page
        .locator('.tabs-container .tab')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => {});
      await wb.openFile(FILE);
      await revealLine(page, run, /^\s*name: events\s*$/);
      await lens(page, 'Incremental check').click();
      await page.locator('.tab', { hasText: 'events.incremental-check.txt' }).first().waitFor({ timeout: 90_000 });
      await page.locator('.view-lines', { hasText: 'Incremental sync holds.' }).first().waitFor({ timeout: 10_000 });
      await shot('49-incremental-check');
      if (!existsSync(join(run, 'workspace', FILE))) throw new Error('the manifest is gone');
    },
  },
  {
    name: 'after a read, an inlay hint shows what a template evaluated to',
    async run({ page, shot, run, demoUrl }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page
        .locator('.tabs-container .tab')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => {});
      await wb.openFile(FILE);
      await revealLine(page, run, /url: "\{\{ config\['url_base'\] \}\}\/events"/);
      await page
        .locator('.view-lines', { hasText: `= "${demoUrl}/events"` })
        .first()
        .waitFor({ timeout: 20_000 });
      await shot('50-inlay-hint');
    },
  },
];
