// Guard rails (issue 19): Run stream on a manifest whose YAML does not parse is refused with the place to
// fix (line:column, what is wrong) and a button that selects it, instead of a read that fails on a
// half-parsed value ("the retriever's requester must be an HttpRequester (got [object Object])").
import { workbench } from './workbench.mjs';

const FILE = 'broken/run-broken-yaml.yaml';

export const guardRailSteps = [
  {
    name: 'Run stream on broken YAML: refused with line:column and a Go to Problem button',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.openFile(FILE);
      await page.locator('.squiggly-error').first().waitFor({ timeout: 30_000 });
      await page.locator('.codelens-decoration a', { hasText: 'Run stream items' }).first().click({ timeout: 30_000 });
      // The refusal is an error notification; the notification center lists it whether or not its toast is still up.
      await page
        .locator('.notification-list-item', { hasText: 'The YAML does not parse (line 15, column 17)' })
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => wb.runCommand('Notifications: Show Notifications'));
      const item = page.locator('.notification-list-item', { hasText: 'The YAML does not parse (line 15, column 17)' }).first();
      await item.waitFor({ timeout: 20_000 });
      const text = (await item.textContent()) ?? '';
      if (!/Nested mappings are not allowed in compact mappings/.test(text))
        throw new Error(`the refusal does not say what is wrong: ${text}`);
      if (await page.locator('.notification-list-item', { hasText: /HttpRequester|\[object Object\]/ }).count())
        throw new Error('a read ran on the broken YAML');
      await shot('50-run-broken-yaml-refused');
      await item.getByRole('button', { name: 'Go to Problem' }).click();
      await page
        .locator('.statusbar-item', { hasText: /Ln 15, Col 17\b/ })
        .first()
        .waitFor({ timeout: 10_000 });
      await wb.runCommand('Notifications: Hide Notifications');
      await shot('51-run-broken-yaml-go-to-problem');
      // No results view was opened for the refused read.
      for (const frame of page.frames()) {
        if ((await frame.title().catch(() => '')) === 'Test read: items' && frame.url().includes('fake.html'))
          throw new Error('a results view opened for the refused read');
      }
    },
  },
];
