// The UI steps, in order. Each waits for what a person would see (selectors with deadlines, no sleeps)
// and takes a screenshot that the run keeps for inspection.
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workbench } from './workbench.mjs';
import { findSecretsIn } from '../secretEncodings.mjs';
import { lensSequenceSteps } from './lensSequence.mjs';
import { guardRailSteps } from './guardRails.mjs';
import { panelLayoutSteps } from './panelLayout.mjs';

const MANIFEST = 'demo/offset-increment.yaml';
const lens = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

/** Scrolls the active editor to the line that declares `name: <stream>`, so its lenses are rendered. */
async function revealStream(page, run, file, stream) {
  const lines = readFileSync(join(run, 'workspace', file), 'utf8').split('\n');
  const at = lines.findIndex((l) => new RegExp(`^\\s*name: ${stream}\\s*$`).test(l));
  if (at < 0) throw new Error(`no stream ${stream} in ${file}`);
  await workbench(page).runCommand('Go to Line/Column...');
  await page.keyboard.type(`${at + 1}:1`);
  await page.keyboard.press('Enter');
}

export const steps = [
  {
    name: 'open the demo manifest and see its lenses',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.openFile(MANIFEST);
      await lens(page, 'Run stream items').waitFor({ timeout: 30_000 });
      await lens(page, 'Set testing values').waitFor({ timeout: 10_000 });
      await shot('01-manifest-with-lenses');
    },
  },
  {
    name: 'fill the testing-values form and save it',
    async run({ page, shot, demoUrl, secrets }) {
      await lens(page, 'Set testing values').click();
      const form = await workbench(page).webviewFrame('Testing values: demo/offset-increment.yaml');
      const url = form.locator('#f_url_base');
      await url.waitFor({ timeout: 20_000 });
      await url.fill(demoUrl);
      const key = form.locator('#f_api_key');
      await key.fill(secrets[0]);
      if ((await key.getAttribute('type')) !== 'password') throw new Error('the secret field is not masked');
      await form.getByRole('button', { name: 'Show API key' }).click();
      if ((await key.getAttribute('type')) !== 'text') throw new Error('the reveal toggle did not reveal the secret');
      await form.getByRole('button', { name: 'Show API key' }).click();
      // A value the spec refuses (page size must be an integer) is reported before anything is saved.
      await form.locator('#f_page_size').fill('2.5');
      await form.locator('#save').click();
      await form.getByText('Not saved').waitFor({ timeout: 10_000 });
      await shot('02-form-validation-error');
      await form.locator('#f_page_size').fill('25');
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await shot('03-form-saved');
    },
  },
  {
    name: 'click Run stream, choose a page and see its records, request and response',
    async run({ page, shot, secrets }) {
      await page.locator('.tab', { hasText: 'offset-increment.yaml' }).first().click();
      await lens(page, 'Run stream items').click();
      const results = await workbench(page).webviewFrame('Test read: items');
      await results.locator('#status', { hasText: /4 pages, 100 records in 1 slice/ }).waitFor({ timeout: 60_000 });
      await results.locator('table.records tbody tr').first().waitFor({ timeout: 10_000 });
      const html = await results.content();
      const leaked = findSecretsIn(html, secrets);
      if (leaked.length) throw new Error(`the results view shows secret values: ${leaked.join(', ')}`);
      await shot('04-results-records');
      // Page 3 of 25 records each: its records start at the 51st item.
      await results.locator('button.page-button[data-page="3"]').click();
      await results.locator('#page-panel[data-page="3"]').waitFor({ timeout: 5_000 });
      const rows = await results.locator('table.records tbody tr').count();
      if (rows !== 25) throw new Error(`page 3 shows ${rows} records, expected 25`);
      const firstId = await results.locator('table.records tbody tr').first().locator('td').nth(1).textContent();
      if (firstId?.trim() !== '51') throw new Error(`page 3 starts with record id ${firstId}, expected 51`);
      await shot('05-results-page-3-records');
      await results.getByRole('tab', { name: 'Request', exact: true }).click();
      await results.locator('.reqline', { hasText: 'offset=50' }).waitFor({ timeout: 5_000 });
      await shot('05b-results-page-3-request');
      await results.getByRole('tab', { name: /^Response/ }).click();
      await results.locator('.reqline', { hasText: 'Status 200' }).waitFor({ timeout: 5_000 });
      await results.locator('table.headers').first().waitFor({ timeout: 5_000 });
      await shot('05c-results-page-3-response');
      // A narrow pane: the header table wraps inside it instead of scrolling sideways.
      await page.setViewportSize({ width: 900, height: 900 });
      await page.waitForTimeout(300); // the workbench re-lays out on resize
      const fits = await results.evaluate(() => {
        const t = document.querySelector('table.headers');
        return t ? t.getBoundingClientRect().right <= document.documentElement.clientWidth + 1 : false;
      });
      await shot('05g-narrow-pane-headers');
      await page.setViewportSize({ width: 1400, height: 900 });
      if (!fits) throw new Error('the header table overflows a narrow pane');
    },
  },
  {
    name: 'the schema tab lists declared vs inferred differences with Write schema, and the detected datetime formats',
    async run({ page, shot }) {
      const results = await workbench(page).webviewFrame('Test read: items');
      await results.getByRole('tab', { name: /^Schema/ }).click();
      await results.locator('#schema-differences li.difference.missing').first().waitFor({ timeout: 10_000 });
      // `id` is declared integer and every record holds a whole number: no contradiction (the Builder's rule).
      if (await results.locator('#schema-differences li[data-path="id"]').count())
        throw new Error('whole-number ids are reported as contradicting `integer`');
      // The runtime's inferred_datetime_formats, as the Builder shows them.
      await results.locator('#datetime-formats tr[data-field="created_at"]', { hasText: '%Y-%m-%dT%H:%M:%SZ' }).waitFor({ timeout: 5_000 });
      await results.locator('#write-schema').waitFor({ timeout: 5_000 });
      await shot('05d-schema-differences');
    },
  },
  {
    name: 'Run with limits… is one small form with the current limits, and the banner names the limit reached',
    async run({ page, shot }) {
      await page.locator('.tab', { hasText: 'offset-increment.yaml' }).first().click();
      await lens(page, 'Run with limits…').click();
      const form = await workbench(page).webviewFrame('Run with limits: items');
      const records = form.locator('#limit_maxRecords');
      await records.waitFor({ timeout: 20_000 });
      const current = [
        await records.inputValue(),
        await form.locator('#limit_maxPagesPerSlice').inputValue(),
        await form.locator('#limit_maxSlices').inputValue(),
      ];
      if (current.join(',') !== '100,5,5') throw new Error(`the form shows ${current.join(',')}, expected the current limits 100,5,5`);
      await records.fill('30');
      await shot('05e-limits-form');
      await form.locator('#run').click();
      const results = await workbench(page).webviewFrame('Test read: items');
      await results.locator('#limit-banner', { hasText: 'Stopped at the record limit (30 records)' }).waitFor({ timeout: 60_000 });
      await results.locator('#status', { hasText: '30 records' }).waitFor({ timeout: 5_000 });
      await shot('05f-limit-banner');
    },
  },
  {
    name: 'see a misspelt type underlined, deprecated fields struck through, and fix the type with the light bulb',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('fixes/quick-fixes.yaml');
      await page.locator('.squiggly-error').first().waitFor({ timeout: 30_000 });
      // The Deprecated tag is drawn struck through.
      await page.locator('.squiggly-inline-deprecated, [class*="deprecated"]').first().waitFor({ timeout: 10_000 });
      // The cursor on the misspelt type (line 17, after `type: `), then the quick-fix menu.
      await wb.runCommand('Go to Line/Column...');
      await page.keyboard.type('17:20');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Control+.');
      const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to `BearerAuthenticator`' }).first();
      // Under load the first Ctrl+. can come before the code actions are ready: ask once more.
      if (
        !(await fix.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        ))
      ) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+.');
        await fix.waitFor({ timeout: 15_000 });
      }
      await shot('06-quick-fix-menu');
      await fix.click();
      await page.locator('.view-lines', { hasText: 'type: BearerAuthenticator' }).first().waitFor({ timeout: 10_000 });
      await page.locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 20_000 });
      await shot('07-quick-fix-applied');
      // Leave the file as it was, saved: a dirty editor would stop "Close All Editors" with a save
      // prompt. Undo + save works whether or not the web workbench's auto-save already wrote the fix.
      await page.keyboard.press('Control+z');
      await page.locator('.view-lines', { hasText: 'type: BearerAuthenticater' }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Control+s');
      await page.locator('.squiggly-error').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'the form renders oneOf groups, enums, arrays and switches options',
    async run({ page, shot }) {
      const wb = workbench(page);
      // One editor group again, so the lens clicked below is this manifest's.
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('refs/manifest.yaml');
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame('Testing values: refs/manifest.yaml');
      const group = form.locator('#f_credentials');
      await group.waitFor({ timeout: 20_000 });
      await form.locator('#f_credentials_token').waitFor({ timeout: 5_000 });
      await group.selectOption({ label: 'OAuth 2.0' });
      await form.locator('#f_credentials_client_id').waitFor({ timeout: 5_000 });
      if (await form.locator('#f_credentials_token').count()) throw new Error('the API token field stayed after switching to OAuth 2.0');
      if ((await form.locator('#f_region').inputValue()) === '') throw new Error('the enum default was not applied');
      await form.getByRole('button', { name: 'Add item' }).click();
      await form.locator('#f_accounts').locator('input').first().waitFor({ timeout: 5_000 });
      await shot('08-form-oneof-array');
    },
  },
  {
    name: 'show the resolved manifest beside the manifest',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('refs/manifest.yaml');
      await wb.runCommand('Airbyte: Show Resolved Manifest');
      await page.locator('.tabs-container .tab', { hasText: 'manifest.resolved.yaml' }).first().waitFor({ timeout: 20_000 });
      await page.locator('.view-lines', { hasText: 'as the Airbyte CDK reads it' }).first().waitFor({ timeout: 10_000 });
      await shot('09-resolved-manifest');
    },
  },
  {
    name: "partitions.yaml: the State tab shows each slice's descriptor and the state after it",
    async run({ page, shot, demoUrl, log, run }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('demo/partitions.yaml');
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame('Testing values: demo/partitions.yaml');
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#f_start_date').fill('2024-01-01T00:00:00Z');
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await page.locator('.tab', { hasText: 'partitions.yaml' }).first().click();
      await revealStream(page, run, 'demo/partitions.yaml', 'events');
      await lens(page, 'Run stream events').click();
      const results = await wb.webviewFrame('Test read: events');
      await results.locator('#status', { hasText: /in [2-9] slices/ }).waitFor({ timeout: 60_000 });
      await results.getByRole('tab', { name: /^State/ }).click();
      const slices = await results.locator('section.slice-state').count();
      if (slices < 2) throw new Error(`the State tab shows ${slices} slice(s)`);
      await results.locator('section.slice-state[data-slice="1"] pre.descriptor', { hasText: 'start_time' }).waitFor({ timeout: 5_000 });
      const states = await results.locator('section.slice-state pre.state').count();
      log(`    State tab: ${slices} slices with descriptors, ${states} with a state message`);
      // The incremental stream emits its cursor state after every daily slice.
      if (states !== slices) throw new Error(`${states} of ${slices} slices show a state`);
      await results
        .locator('section.slice-state[data-slice="2"] pre.state', { hasText: '"created_at": "2024-01-02T23:00:00Z"' })
        .waitFor({ timeout: 5_000 });
      await shot('14-state-per-slice');
      await results.getByRole('tab', { name: /^Pages/ }).click();
      await results.locator('#slice-select').selectOption({ index: 1 });
      await results.locator('#page-panel[data-slice="2"]').waitFor({ timeout: 5_000 });
      await shot('14b-slice-2-selected');
    },
  },
  {
    name: 'cursor-pagination.yaml: each page shows its pagination trace, the last one why pagination stopped',
    async run({ page, shot, demoUrl, run }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('demo/cursor-pagination.yaml');
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame('Testing values: demo/cursor-pagination.yaml');
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await page.locator('.tab', { hasText: 'cursor-pagination.yaml' }).first().click();
      await revealStream(page, run, 'demo/cursor-pagination.yaml', 'cursor_in_body');
      // Default limits: 40 records a page, so the 100-record limit ends the read inside page 3.
      await lens(page, 'Run stream cursor_in_body').click();
      const results = await wb.webviewFrame('Test read: cursor_in_body');
      await results.locator('#status', { hasText: /3 pages, 100 records/ }).waitFor({ timeout: 60_000 });
      await results.locator('#page-trace', { hasText: /^∅ → \S+ · 40 records · next page: requested$/ }).waitFor({ timeout: 10_000 });
      await shot('18-pagination-trace-page-1');
      await results.locator('button.page-button[data-page="3"]').click();
      await results
        .locator('#page-trace', { hasText: "stopped: record limit of the test read (100) reached: 20 of the page's 40 records kept" })
        .waitFor({ timeout: 5_000 });
      await shot('18b-pagination-trace-record-limit');
      // With room for every page, the last one stops on the paginator's own stop_condition.
      await page.locator('.tab', { hasText: 'cursor-pagination.yaml' }).first().click();
      await lens(page, 'Run with limits…').click();
      const limits = await wb.webviewFrame('Run with limits: cursor_in_body');
      await limits.locator('#limit_maxRecords').waitFor({ timeout: 20_000 });
      await limits.locator('#limit_maxRecords').fill('1000');
      await limits.locator('#limit_maxPagesPerSlice').fill('10');
      await limits.locator('#run').click();
      const rerun = await wb.webviewFrame('Test read: cursor_in_body');
      await rerun.locator('#status', { hasText: /7 pages, 250 records/ }).waitFor({ timeout: 60_000 });
      await rerun.locator('button.page-button[data-page="7"]').click();
      await rerun
        .locator('#page-trace', { hasText: 'stopped: stop_condition "{{ response.meta.next_cursor is none }}" evaluated true' })
        .waitFor({ timeout: 5_000 });
      await shot('18c-pagination-trace-stop-condition');
      // A narrow pane: the trace wraps inside it (the testing-values form closed, so the view keeps a pane of its own).
      // A middle click closes that tab only (a command palette search could pick "Close All Editors").
      await page.locator('.tab', { hasText: 'Testing values: demo/cursor-pagination.yaml' }).first().click({ button: 'middle' });
      await page
        .locator('.tab', { hasText: 'Testing values: demo/cursor-pagination.yaml' })
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 });
      await page.locator('.tab', { hasText: 'Test read: cursor_in_body' }).first().click();
      await page.setViewportSize({ width: 900, height: 900 });
      await page.waitForTimeout(300); // the workbench re-lays out on resize
      const fits = await rerun.evaluate(() => {
        const t = document.getElementById('page-trace');
        return t ? t.getBoundingClientRect().right <= document.documentElement.clientWidth + 1 : false;
      });
      await shot('18d-pagination-trace-narrow-pane');
      await page.setViewportSize({ width: 1400, height: 900 });
      if (!fits) throw new Error('the pagination trace overflows a narrow pane');
    },
  },
  {
    name: 'OAuth: Authenticate in the form runs the consent flow on the demo API; a rotated token appears in the open form',
    async run({ page, shot, demoUrl, run }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('demo/oauth-consent.yaml');
      // The lenses are ready (the "Authenticate with OAuth" one sits above advanced_auth, below the
      // first screen of a 900-pixel window, so Monaco does not render it yet).
      await lens(page, 'Set testing values').waitFor({ state: 'attached', timeout: 30_000 });
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame('Testing values: demo/oauth-consent.yaml');
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      // Descriptions render as formatted text (a <code> element, a link), never as raw markup.
      await form.locator('.help code', { hasText: 'npm run demo-api' }).waitFor({ timeout: 5_000 });
      await form.locator('.help a[href="https://docs.airbyte.com/"]').waitFor({ timeout: 5_000 });
      if (await form.getByText('<code>').count()) throw new Error('a description shows raw HTML');
      await form.locator('#f_url_base').fill('not a url');
      await form.locator('#save').click();
      await form.getByText('Demo API URL must be written as http(s)://host:port.').first().waitFor({ timeout: 10_000 });
      await shot('15-form-rich-descriptions-titled-error');
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#f_client_id').fill('demo-client');
      await form.locator('#f_client_secret').fill('demo-secret');
      // The consent page opens in a new browser tab (after VS Code's "open external website" prompt).
      const popup = page.context().waitForEvent('page', { timeout: 30_000 });
      await form.locator('#authenticate').click();
      const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
      await Promise.race([open.waitFor({ timeout: 15_000 }).then(() => open.click()), popup]).catch(() => {});
      const consent = await popup;
      await consent.waitForLoadState('load', { timeout: 30_000 }).catch(() => {});
      await consent.getByText('VS Code received the authorization').waitFor({ timeout: 30_000 });
      await consent.close();
      // The tokens appear in the open form (the banner says "Updated from secret storage" or
      // "Authenticated", whichever message arrives last).
      await form.waitForFunction(() => (document.getElementById('f_credentials_access_token')?.value ?? '') !== '', null, {
        timeout: 30_000,
      });
      const firstRefresh = await form.locator('#f_credentials_refresh_token').inputValue();
      if (!/^demo-refresh-\d+$/.test(firstRefresh)) throw new Error('the form does not show the refresh token the consent flow stored');
      await shot('16-oauth-authenticated-form-updated');
      // A read refreshes with the single-use token; the rotated one is written back and shows up in the open form.
      await page.locator('.tab', { hasText: 'oauth-consent.yaml' }).first().click();
      await revealStream(page, run, 'demo/oauth-consent.yaml', 'oauth_consented_items');
      await lens(page, 'Run stream oauth_consented_items').click();
      const results = await wb.webviewFrame('Test read: oauth_consented_items');
      await results.locator('table.records tbody tr').first().waitFor({ timeout: 60_000 });
      await page.locator('.tab', { hasText: 'Testing values: demo/oauth-consent.yaml' }).first().click();
      await form.getByText(/Updated from secret storage: .*Tokens › Refresh token/).waitFor({ timeout: 20_000 });
      const rotated = await form.locator('#f_credentials_refresh_token').inputValue();
      if (rotated === firstRefresh || !/^demo-refresh-\d+$/.test(rotated))
        throw new Error('the open form still shows the used-up refresh token');
      await shot('17-rotated-token-in-open-form');
      // Saving the form now keeps the rotated token (nothing stale is written back).
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await page.locator('.tab', { hasText: 'oauth-consent.yaml' }).first().click();
      await revealStream(page, run, 'demo/oauth-consent.yaml', 'oauth_consented_items');
      const readBefore = Number(await results.locator('#status').getAttribute('data-read'));
      await lens(page, 'Run stream oauth_consented_items').click();
      // The second read, finished (the first one's status has the same words).
      await results
        .locator(`#status[data-read="${readBefore + 1}"][data-running="false"]`, { hasText: /^\d+ pages?, [1-9]\d* records?/ })
        .waitFor({ timeout: 60_000 });
      if (await results.locator('#read-error').count()) throw new Error('the second read failed: a used-up token was written back');
    },
  },
  {
    name: 'share one authenticator among three streams with "Extract to definitions"',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile('refactor/shared-auth.yaml');
      // Once the text is drawn, the cursor goes on the first stream's `authenticator:` key.
      await page.locator('.view-lines', { hasText: 'ApiKeyAuthenticator' }).first().waitFor({ timeout: 30_000 });
      await wb.runCommand('Go to Line/Column...');
      await page.keyboard.type('16:12');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Control+.');
      const share = page.locator('.action-widget .monaco-list-row', { hasText: 'Share authenticator with 3 streams' }).first();
      await share.waitFor({ timeout: 15_000 });
      await page
        .locator('.action-widget .monaco-list-row', { hasText: 'Extract authenticator to definitions' })
        .first()
        .waitFor({ timeout: 5_000 });
      await shot('10-extract-to-definitions-menu');
      await share.click();
      await page.locator('.view-lines', { hasText: '$ref: "#/definitions/authenticator"' }).first().waitFor({ timeout: 10_000 });
      // Scrolled to the top: the new definitions section, and the first stream now referencing it.
      await page.keyboard.press('Control+Home');
      await page.locator('.view-lines', { hasText: 'definitions:' }).first().waitFor({ timeout: 10_000 });
      // The rewritten manifest stays valid: once validation (debounced after the edit) has had time, no error is drawn.
      await page.waitForTimeout(1500);
      if (await page.locator('.squiggly-error').count()) throw new Error('the refactored manifest has errors');
      await shot('11-extract-to-definitions-applied');
      await wb.runCommand('File: Revert File');
      await page.locator('.view-lines', { hasText: 'definitions:' }).first().waitFor({ state: 'detached', timeout: 10_000 });
    },
  },
  {
    name: 'Run stream → Save Read as Cassette → Replay Cassette → Compare with Previous Read',
    async run({ page, shot, run, secrets, log }) {
      const wb = workbench(page);
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile(MANIFEST);
      await lens(page, 'Run stream items').click();
      const results = await wb.webviewFrame('Test read: items');
      await results.locator('#status', { hasText: /4 pages, 100 records in 1 slice/ }).waitFor({ timeout: 60_000 });
      // Save: the results view's button opens the save dialog on cassettes/items.cassette.yaml beside the manifest.
      await results.locator('#save-cassette').click();
      const pathInput = page.locator('.quick-input-widget input');
      await pathInput.waitFor({ timeout: 15_000 });
      // The simple file dialog fills its input in two steps (folder, then file name).
      const proposed = await page
        .waitForFunction(
          () => {
            const v = document.querySelector('.quick-input-widget input')?.value ?? '';
            return v.endsWith('.yaml') ? v : null;
          },
          null,
          { timeout: 10_000 },
        )
        .then((h) => h.jsonValue())
        .catch(() => pathInput.inputValue());
      if (!proposed.endsWith('demo/cassettes/items.cassette.yaml')) throw new Error(`the save dialog proposes ${proposed}`);
      await shot('30-save-cassette-dialog');
      await page.keyboard.press('Enter');
      // The dialog offers to create the cassettes folder first; a person confirms with Enter.
      const file = join(run, 'workspace', 'demo', 'cassettes', 'items.cassette.yaml');
      const createFolder = page.locator('.quick-input-widget', { hasText: 'does not exist. Would you like to create it?' });
      if (
        await createFolder.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      ) {
        await shot('30b-create-cassettes-folder');
        await page.keyboard.press('Enter');
      }
      for (const deadline = Date.now() + 20_000; !existsSync(file); ) {
        if (Date.now() > deadline) throw new Error('the cassette was not written');
        await page.waitForTimeout(200);
      }
      // The confirmation names the file and the expectation written beside it.
      await wb.runCommand('Notifications: Show Notifications');
      await page
        .locator('.notifications-center', {
          hasText:
            "Saved the read of 'items' (4 HTTP exchanges, secrets masked) to cassettes/items.cassette.yaml and its expectation cassettes/items.expected.json",
        })
        .waitFor({ timeout: 20_000 });
      await shot('31-cassette-saved');
      await wb.runCommand('Notifications: Hide Notifications');
      const cassette = readFileSync(file, 'utf8');
      const leaked = findSecretsIn(cassette, secrets);
      if (leaked.length) throw new Error(`the cassette holds secret values: ${leaked.join(', ')}`);
      if (!cassette.includes('api_key: "****"') && !cassette.includes("api_key: '****'"))
        throw new Error('the cassette does not show the API key masked');
      log(`    cassette: ${cassette.split('\n').length} lines, ${cassette.length} bytes for 4 pages of 25 records`);
      // Replay: the lens beside "Run stream" appears now that the cassette exists.
      await page.locator('.tab', { hasText: 'offset-increment.yaml' }).first().click();
      await lens(page, 'Replay cassette').waitFor({ timeout: 30_000 });
      await shot('32-replay-cassette-lens');
      await lens(page, 'Replay cassette').click();
      await results.locator('#replayed-from', { hasText: 'cassettes/items.cassette.yaml' }).waitFor({ timeout: 30_000 });
      await results.locator('#status', { hasText: /4 pages, 100 records in 1 slice/ }).waitFor({ timeout: 30_000 });
      await shot('33-replayed-read');
      // Compare: the replay of an unchanged manifest reads exactly what the API returned.
      await results.locator('#compare-reads').click();
      const compare = await wb.webviewFrame('Compare: items');
      await compare.locator('#no-differences', { hasText: 'the same 100 records' }).waitFor({ timeout: 20_000 });
      await compare.locator('#side-before', { hasText: 'read from the API' }).waitFor({ timeout: 5_000 });
      await compare.locator('#side-after', { hasText: 'replay of cassettes/items.cassette.yaml' }).waitFor({ timeout: 5_000 });
      await shot('34-compare-no-differences');
      // A manifest change (a field added, one removed), replayed offline, then compared with the previous read.
      const manifestFile = join(run, 'workspace', ...MANIFEST.split('/'));
      const original = readFileSync(manifestFile, 'utf8');
      const transformed =
        `${original}    transformations:\n` +
        '      - type: AddFields\n        fields: [{type: AddedFieldDefinition, path: [source], value: cassette}]\n' +
        '      - type: RemoveFields\n        field_pointers: [[category]]\n';
      writeFileSync(manifestFile, transformed);
      try {
        // The editor reloads the changed file; go to its last lines (lenses above the stream and the
        // paginator push them below the fold) and wait until they show the new transformation.
        await page.locator('.tab', { hasText: 'offset-increment.yaml' }).first().click();
        await wb.runCommand('Go to Line/Column...');
        await page.keyboard.type(`${transformed.split('\n').length - 1}:1`);
        await page.keyboard.press('Enter');
        await page.locator('.view-lines', { hasText: 'RemoveFields' }).first().waitFor({ timeout: 20_000 });
        await page.locator('.tab', { hasText: 'Test read: items' }).first().click();
        await results.locator('#rerun').click();
        // The new replay's records have the added field (the status reads the same as before).
        await results.locator('table.records th', { hasText: /^source$/ }).waitFor({ timeout: 30_000 });
        await results.locator('#replayed-from').waitFor({ timeout: 5_000 });
        await results.locator('#status', { hasText: /4 pages, 100 records in 1 slice/ }).waitFor({ timeout: 5_000 });
        await results.locator('#compare-reads').click();
        await compare
          .locator('#compare-summary', { hasText: '0 added, 0 removed, 100 changed records; 2 schema changes' })
          .waitFor({ timeout: 20_000 });
        await compare.locator('details.record-change[data-key="id=1"] td.after', { hasText: '"cassette"' }).waitFor({ timeout: 5_000 });
        await compare.locator('details.record-change[data-key="id=1"] td.before', { hasText: '"books"' }).waitFor({ timeout: 5_000 });
        await compare.locator('#schema li', { hasText: '+ source: string' }).waitFor({ timeout: 5_000 });
        await compare.locator('#schema li', { hasText: '- category: string' }).waitFor({ timeout: 5_000 });
        const shown = findSecretsIn(await compare.content(), secrets);
        if (shown.length) throw new Error(`the comparison shows secret values: ${shown.join(', ')}`);
        await shot('35-compare-after-manifest-change');
        // A change that needs a request the cassette does not hold: with 10 records filtered out, the
        // record limit is not reached after 4 pages and the read asks for a fifth page.
        writeFileSync(
          manifestFile,
          transformed.replace(
            '        extractor: {type: DpathExtractor, field_path: [data]}',
            '        extractor: {type: DpathExtractor, field_path: [data]}\n        record_filter: {type: RecordFilter, condition: "{{ record.id <= 90 }}"}',
          ),
        );
        await page.locator('.view-lines', { hasText: 'record_filter' }).first().waitFor({ timeout: 20_000 });
        await page.locator('.tab', { hasText: 'Test read: items' }).first().click();
        await results.locator('#rerun').click();
        await results
          .locator('#read-error', {
            hasText:
              /Replay of cassettes\/items\.cassette\.yaml: no recorded response for GET http:\/\/127\.0\.0\.1:\d+\/offset\/items\?offset=100&limit=25/,
          })
          .waitFor({ timeout: 30_000 });
        await shot('36-replay-names-the-missing-request');
      } finally {
        writeFileSync(manifestFile, original);
      }
    },
  },
  {
    name: 'after Run stream, completion inside {{ response. }} lists the captured keys and hover on cursor_value shows each page',
    async run({ page, shot, demoUrl, run }) {
      const wb = workbench(page);
      const file = 'demo/cursor-pagination.yaml';
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile(file);
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame(`Testing values: ${file}`);
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await page.locator('.tab', { hasText: 'cursor-pagination.yaml' }).first().click();
      await revealStream(page, run, file, 'cursor_in_body');
      await lens(page, 'Run stream cursor_in_body').click();
      const results = await wb.webviewFrame('Test read: cursor_in_body');
      await results.locator('#status', { hasText: /3 pages, 100 records/ }).waitFor({ timeout: 60_000 });
      await page.locator('.tab', { hasText: 'cursor-pagination.yaml' }).first().click();
      // The cursor right after `response.` in the first stream's cursor_value, then Ctrl+Space.
      const lines = readFileSync(join(run, 'workspace', file), 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes('cursor_value: "{{ response.meta.next_cursor }}"'));
      const column = lines[line].indexOf('response.') + 'response.'.length + 1;
      await wb.runCommand('Go to Line/Column...');
      await page.keyboard.type(`${line + 1}:${column}`);
      await page.keyboard.press('Enter');
      // The paginator of the stream now carries the summary of the read's pagination trace (display-only lens).
      await page
        .locator('.codelens-decoration', { hasText: '3 pages · stopped: record limit of the test read (100) reached' })
        .first()
        .waitFor({ timeout: 20_000 });
      await wb.suggestUntil('records');
      const suggest = page.locator('.suggest-widget .monaco-list-row');
      await suggest.filter({ hasText: 'meta' }).first().waitFor({ timeout: 5_000 });
      const first = await suggest.first().getAttribute('aria-label');
      if (!/^records/.test(first ?? '')) throw new Error(`the first suggestion is ${first}, expected the captured key records`);
      await shot('20-completion-from-captured-read');
      await page.keyboard.press('Escape');
      // Hover on the cursor_value template: its value on each page of the read.
      await wb.runCommand('Show or Focus Hover');
      const hover = page.locator('.monaco-hover', { hasText: 'From the last read' }).first();
      await hover.waitFor({ timeout: 15_000 });
      await hover
        .getByText(/page 1 → /)
        .first()
        .waitFor({ timeout: 5_000 });
      const text = await hover.textContent();
      if (!/page 3 → /.test(text ?? '')) throw new Error(`the hover does not list every page: ${text}`);
      await shot('21-hover-cursor-value-per-page');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'a config.json that links to another project: Import config.json asks before following the link, and Cancel imports nothing',
    async run({ page, shot, run }) {
      const wb = workbench(page);
      // A repository folder whose config.json links to another project's secrets, beside the workspace.
      const folder = join(run, 'workspace', 'linked-ui');
      const other = join(run, 'other-project-ui', 'secrets');
      mkdirSync(folder, { recursive: true });
      mkdirSync(other, { recursive: true });
      writeFileSync(join(other, 'config.json'), JSON.stringify({ url_base: 'http://127.0.0.1:9', api_key: 'other-project-key' }));
      copyFileSync(join(run, 'workspace', MANIFEST), join(folder, 'linked-manifest.yaml'));
      symlinkSync(join('..', '..', 'other-project-ui', 'secrets', 'config.json'), join(folder, 'config.json'));
      await wb.runCommand('View: Close All Editors');
      await wb.runCommand('File: Refresh Explorer');
      // A name no other folder holds: the Explorer helper clicks the first row of that name.
      await wb.openFile('linked-ui/linked-manifest.yaml');
      // The prompt is a notification: a toast, or (when toasts are hidden) a row of the notification center.
      const toast = () =>
        page.locator('.notification-list-item', { hasText: 'No testing values are set for linked-ui/linked-manifest.yaml' }).first();
      const prompt = async () => {
        await lens(page, 'Run stream items').click();
        try {
          await toast().waitFor({ timeout: 10_000 });
        } catch {
          await wb.runCommand('Notifications: Show Notifications');
          await toast().waitFor({ timeout: 20_000 });
        }
      };
      await prompt();
      await toast().locator('.monaco-button', { hasText: 'Import config.json' }).click();
      const dialog = page.locator('.monaco-dialog-box', { hasText: 'is a symbolic link to' });
      await dialog.waitFor({ timeout: 10_000 });
      const text = await dialog.textContent();
      if (!/other-project-ui\/secrets\/config\.json, outside this manifest's folder/.test(text ?? ''))
        throw new Error(`the dialog does not name the link's target: ${text}`);
      await shot('40-import-config-json-link-confirmation');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
      // Nothing was imported: the next Run stream asks for testing values again.
      await page.locator('.tab', { hasText: 'linked-manifest.yaml' }).first().click();
      await prompt();
      await shot('41-nothing-imported-after-cancel');
      await page.keyboard.press('Escape');
    },
  },
  ...lensSequenceSteps,
  ...guardRailSteps,
  ...panelLayoutSteps,
  {
    name: 'Airbyte CDK: the lens of a stream with custom components says what to install',
    async run({ page, shot }) {
      if (!REFERENCE_PYTHON) {
        await shot('30-cdk-skipped-no-reference');
        return;
      }
      // No interpreter chosen: python3 on the PATH, which has no airbyte-cdk on this machine.
      await workbench(page).ready();
      await quickOpen(page, CDK_MANIFEST);
      await lens(page, 'labelled_items uses Python components').waitFor({ timeout: 90_000 });
      await shot('30-cdk-lens-what-to-install');
    },
  },
  {
    name: 'Airbyte CDK: Run stream on a custom-components manifest shows its records',
    async run({ page, shot, run, demoUrl }) {
      if (!REFERENCE_PYTHON) return;
      setWorkspaceSetting(run, 'airbyte.cdk.python', REFERENCE_PYTHON);
      await quickOpen(page, CDK_MANIFEST);
      // The probe of the interpreter answered: the lens no longer says "checking Python…".
      await lens(page, /Run stream labelled_items on the Airbyte CDK$/).waitFor({ timeout: 120_000 });
      await shot('31-cdk-lens-ready');
      // The testing values, entered in the form as a person would.
      await lens(page, 'Set testing values').click();
      const form = await workbench(page).webviewFrame('Testing values: demo/custom-components/manifest.yaml');
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await quickOpen(page, CDK_MANIFEST);
      await lens(page, /Run stream labelled_items on the Airbyte CDK$/).click();
      const results = await workbench(page).webviewFrame('Test read: labelled_items', 60_000);
      await results.locator('#status', { hasText: /pages?, \d+ records in 1 slice/ }).waitFor({ timeout: 180_000 });
      await results.locator('table.records tbody tr').first().waitFor({ timeout: 10_000 });
      const label = await results.locator('table.records tbody tr').first().textContent();
      if (!/item-1/.test(label ?? '')) throw new Error(`the first record has no label from components.py: ${label}`);
      await shot('32-cdk-results-records');
    },
  },
  {
    name: 'Airbyte CDK: Compare with the CDK says the demo stream is identical',
    async run({ page, shot, demoUrl }) {
      if (!REFERENCE_PYTHON) return;
      await quickOpen(page, 'demo/cursor-pagination.yaml');
      // The testing values of this manifest (the steps above may have set them already; saving again is harmless).
      await lens(page, 'Set testing values').click();
      const form = await workbench(page).webviewFrame('Testing values: demo/cursor-pagination.yaml');
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      // Back to the manifest's editor (the command reads the stream of the active editor).
      await page.locator('.monaco-editor .view-lines', { hasText: 'Cursor pagination, three ways' }).first().click();
      await workbench(page).runCommand('Airbyte: Compare with the CDK');
      const input = page.locator('.quick-input-widget input');
      await input.fill('cursor_in_body');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cursor_in_body' }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      const view = await workbench(page).webviewFrame('Built-in vs CDK: cursor_in_body', 180_000);
      await view.locator('#no-differences').waitFor({ timeout: 180_000 });
      await shot('33-compare-with-cdk-identical');
    },
  },
  {
    name: 'a page of 100 records × 2,000 fields shows its first fields at once, and more on request',
    async run({ page, shot, demoUrl, log }) {
      const wb = workbench(page);
      const file = 'bounds/wide.yaml';
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile(file);
      // Run on its own (E2E_UI_GREP) this step is the first: the language server may still be starting.
      await lens(page, 'Set testing values').waitFor({ timeout: 90_000 });
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame(`Testing values: ${file}`);
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await page.locator('.tab', { hasText: 'wide.yaml' }).first().click();
      await lens(page, 'Run stream wide').click();
      const results = await wb.webviewFrame('Test read: wide');
      // The final status (not the "Reading… 1 page, 100 records" of the progress): the result has arrived.
      await results.locator('#status', { hasText: /^1 page, 100 records in 1 slice$/ }).waitFor({ timeout: 120_000 });
      await results.locator('table.records tbody tr').nth(99).waitFor({ timeout: 10_000 });
      // Measured in the webview: from the result message to the first painted frame that shows it.
      const shownMs = Number(await results.locator('body[data-result-shown-ms]').getAttribute('data-result-shown-ms', { timeout: 10_000 }));
      log(`    100 records × 2,000 fields: the table was on screen ${shownMs} ms after the result arrived`);
      const columns = await results.locator('table.records thead th').count();
      if (columns !== 61) throw new Error(`the table shows ${columns} header cells, expected # and the first 60 fields`);
      await results.locator('.table-more', { hasText: 'Showing 60 of 2000 fields and 100 of 100 records' }).waitFor({ timeout: 5_000 });
      await shot('42-wide-page-first-fields');
      await results.getByRole('button', { name: 'Show 60 more fields' }).click();
      await results.locator('table.records thead th').nth(120).waitFor({ timeout: 5_000 });
      await results.locator('.table-more', { hasText: 'Showing 120 of 2000 fields' }).waitFor({ timeout: 5_000 });
      await shot('43-wide-page-more-fields');
    },
  },
];

/** The reference CDK's interpreter (REFCDK_DIR or ../refcdk beside the repository), or null. */
const REFERENCE_PYTHON = (() => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const python = join(resolve(root, process.env.REFCDK_DIR ?? '../refcdk'), 'venv/bin/python');
  return existsSync(python) ? python : null;
})();
const CDK_MANIFEST = 'demo/custom-components/manifest.yaml';

/** Opens a workspace file by its relative path through Quick Open (several files share a name). */
async function quickOpen(page, relative) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(relative);
  // A fresh workbench may still be indexing the workspace for Quick Open; and until the filter has
  // run, the list shows recently opened files (linked-manifest.yaml also contains "manifest.yaml"):
  // wait until the focused row is this file in this folder before pressing Enter.
  const name = relative.split('/').pop();
  const folder = relative.split('/').slice(0, -1).join('/');
  let focused = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name });
  if (folder) focused = focused.filter({ hasText: folder });
  await focused.first().waitFor({ timeout: 90_000 });
  await page.keyboard.press('Enter');
  await page
    .locator('.tabs-container .tab.active', { hasText: relative.split('/').pop() })
    .first()
    .waitFor({ timeout: 20_000 });
}

/** Writes one setting into the workspace's .vscode/settings.json (the workbench picks the change up). */
function setWorkspaceSetting(run, key, value) {
  const dir = join(run, 'workspace', '.vscode');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'settings.json');
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  settings[key] = value;
  writeFileSync(file, JSON.stringify(settings, null, 2));
}
