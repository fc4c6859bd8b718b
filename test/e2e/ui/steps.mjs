// The UI steps, in order. Each waits for what a person would see (selectors with deadlines, no sleeps)
// and takes a screenshot that the run keeps for inspection.
import { workbench } from './workbench.mjs';
import { findSecretsIn } from '../secretEncodings.mjs';

const MANIFEST = 'demo/offset-increment.yaml';
const lens = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

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
    name: 'click Run stream and see the records',
    async run({ page, shot, secrets }) {
      await page.locator('.tab', { hasText: 'offset-increment.yaml' }).first().click();
      await lens(page, 'Run stream items').click();
      const results = await workbench(page).webviewFrame('Test read: items');
      await results.locator('table.records tbody tr').first().waitFor({ timeout: 60_000 });
      const rows = await results.locator('table.records tbody tr').count();
      if (rows < 1) throw new Error('no record rows in the results view');
      const html = await results.content();
      const leaked = findSecretsIn(html, secrets);
      if (leaked.length) throw new Error(`the results view shows secret values: ${leaked.join(', ')}`);
      await shot('04-results-records');
      await results.getByRole('tab', { name: /^Pages/ }).click();
      await results.locator('details.page').first().waitFor({ timeout: 10_000 });
      await shot('05-results-pages');
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
      await fix.waitFor({ timeout: 15_000 });
      await shot('06-quick-fix-menu');
      await fix.click();
      await page.locator('.view-lines', { hasText: 'type: BearerAuthenticator' }).first().waitFor({ timeout: 10_000 });
      await page.locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 20_000 });
      await shot('07-quick-fix-applied');
      // Leave the file as it was: a dirty editor would stop "Close All Editors" with a save prompt.
      await wb.runCommand('File: Revert File');
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
      await page.locator('.action-widget .monaco-list-row', { hasText: 'Extract authenticator to definitions' }).first().waitFor({ timeout: 5_000 });
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
];
