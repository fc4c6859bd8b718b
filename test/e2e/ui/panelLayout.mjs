// Results view and forms (issue 19): one results panel per manifest and one form, sharing one column
// beside the manifest (no third column, no squeezed manifest); in a narrow pane every button wraps
// instead of being cut off; the "No testing values" notification shows its buttons whole.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbench } from './workbench.mjs';

const FILE = 'demo/page-increment.yaml';
const lensLink = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();
const groups = (page) => page.locator('.part.editor .editor-group-container').count();

async function expectGroups(page, n, when) {
  const count = await groups(page);
  if (count !== n) throw new Error(`${when}: ${count} editor columns, expected ${n}`);
}

/** Buttons of a frame whose right edge passes the page's width, or whose text is cut (ellipsis). */
async function clippedButtons(frame) {
  return frame.evaluate(() =>
    [...document.querySelectorAll('button')]
      .filter((b) => b.offsetParent !== null)
      .filter((b) => b.getBoundingClientRect().right > document.documentElement.clientWidth + 1 || b.scrollWidth > b.clientWidth + 1)
      .map((b) => b.textContent),
  );
}

export const panelLayoutSteps = [
  {
    name: 'results and forms share one column beside the manifest, and fit a narrow pane',
    async run({ page, shot, demoUrl, log }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile(FILE);
      await lensLink(page, 'Set testing values').click({ timeout: 30_000 });
      const form = await wb.webviewFrame(`Testing values: ${FILE}`);
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      await expectGroups(page, 2, 'manifest and form');
      // Two streams of one manifest: one results panel, in the form's column.
      for (const stream of ['pages_zero_based', 'pages_one_based']) {
        await page.locator('.tab', { hasText: 'page-increment.yaml' }).first().click();
        await lensLink(page, `Run stream ${stream}`).click({ timeout: 30_000 });
        const results = await wb.webviewFrame(`Test read: ${stream}`, 60_000);
        await results.locator('#status[data-running="false"]').waitFor({ timeout: 60_000 });
        await expectGroups(page, 2, `after Run stream ${stream}`);
      }
      const resultTabs = await page.locator('.tab', { hasText: 'Test read:' }).count();
      if (resultTabs !== 1) throw new Error(`${resultTabs} results tabs for one manifest`);
      // Run again from the results panel (the active column is then the panel's own): still two columns.
      const results = await wb.webviewFrame('Test read: pages_one_based');
      const before = Number(await results.locator('#status').getAttribute('data-read'));
      await results.locator('#rerun').click();
      await results.locator(`#status[data-read="${before + 1}"][data-running="false"]`).waitFor({ timeout: 60_000 });
      await expectGroups(page, 2, 'after Run again in the results panel');
      // The manifest keeps half of the editor area.
      const widths = await page
        .locator('.part.editor .editor-group-container')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
      if (widths[0] < 0.4 * (widths[0] + widths[1]))
        throw new Error(`the manifest column is squeezed: ${widths.map(Math.round).join(' / ')} px`);
      await shot('60-one-column-beside-the-manifest');

      // A narrow window: the form's and the results' buttons wrap, none is cut off.
      await page.setViewportSize({ width: 760, height: 900 });
      await page.waitForTimeout(300); // the workbench re-lays out on resize
      await page
        .locator('.tab', { hasText: `Testing values: ${FILE}` })
        .first()
        .click();
      await form.locator('#clear').waitFor({ timeout: 10_000 });
      const formClipped = await clippedButtons(form);
      await shot('61-form-narrow-pane');
      await page.locator('.tab', { hasText: 'Test read:' }).first().click();
      await results.locator('#rerun').waitFor({ timeout: 10_000 });
      const resultsClipped = await clippedButtons(results);
      await shot('62-results-narrow-pane');
      await page.setViewportSize({ width: 1400, height: 900 });
      if (formClipped.length) throw new Error(`form buttons cut off in a narrow pane: ${formClipped.join(', ')}`);
      if (resultsClipped.length) throw new Error(`results buttons cut off in a narrow pane: ${resultsClipped.join(', ')}`);
      log(`    columns ${widths.map(Math.round).join(' / ')} px; narrow pane: no button cut off`);
    },
  },
  {
    name: 'the "No testing values" notification shows every button whole',
    async run({ page, shot, run, demoUrl }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      // The situation of the demo workspace: another manifest has values, and a config.json sits beside.
      await wb.openFile(FILE);
      await lensLink(page, 'Set testing values').click({ timeout: 30_000 });
      const form = await wb.webviewFrame(`Testing values: ${FILE}`);
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
      const configJson = join(run, 'workspace', 'demo', 'config.json');
      writeFileSync(configJson, JSON.stringify({ url_base: demoUrl, username: 'notice-test' }));
      try {
        await wb.runCommand('View: Close All Editors');
        await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
        await wb.openFile('demo/basic-auth.yaml');
        await lensLink(page, 'Run stream basic_items').click({ timeout: 30_000 });
        // The toast, or the same item in the notification center when the workbench shows no toasts.
        const message = 'No testing values are set for demo/basic-auth.yaml';
        await page
          .locator('.notification-list-item', { hasText: message })
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => wb.runCommand('Notifications: Show Notifications'));
        const toast = page.locator('.notification-list-item', { hasText: message }).first();
        await toast.waitFor({ timeout: 20_000 });
        const buttons = await toast
          .locator('.notification-list-item-buttons-container .monaco-button')
          .evaluateAll((els) => els.map((b) => ({ text: b.textContent, cut: b.scrollWidth > b.clientWidth + 1 })));
        await shot('63-no-testing-values-notification');
        if (buttons.length > 3) throw new Error(`${buttons.length} buttons: ${buttons.map((b) => b.text).join(' | ')}`);
        const cut = buttons.filter((b) => b.cut).map((b) => b.text);
        if (cut.length) throw new Error(`buttons cut off: ${cut.join(', ')}`);
        const labels = buttons.map((b) => b.text).join(' | ');
        if (labels !== 'Import config.json | Copy Values… | Set Values…') throw new Error(`the buttons are ${labels}`);
        await wb.runCommand('Notifications: Clear All Notifications');
      } finally {
        rmSync(configJson, { force: true });
      }
    },
  },
];
