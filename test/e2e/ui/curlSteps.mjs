// The cURL round trip in the real editor: a read of the demo API's API-key stream, "Copy as cURL" on
// its request (secrets masked), "New Stream from cURL…" with the copied command (the input box is
// filled from the clipboard), the new stream added to the same manifest, and its read sends the same
// request; then "Copy as cURL with secrets" puts the testing value back. The browser context is granted
// clipboard permissions so the workbench's clipboard (what the extension's vscode.env.clipboard uses)
// is the real one the page reads. Screenshots under .e2e/screenshots/ (60-…).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workbench } from './workbench.mjs';
import { findSecretsIn } from '../secretEncodings.mjs';

const FILE = 'demo/api-key-auth.yaml';
const KEY = 'demo-api-key'; // the demo API's key (demo/api/authCredentials.ts), not a secret of the suite
const lens = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

/** The results frame of this manifest: its title is the stream's; another manifest's panel may share it. */
async function resultsFrame(page, title, urlPart) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const frame of page.frames()) {
      if (!frame.url().includes('fake.html') || (await frame.title().catch(() => '')) !== title) continue;
      if (
        await frame
          .locator('.reqline', { hasText: urlPart })
          .count()
          .catch(() => 0)
      )
        return frame;
      if (
        await frame
          .locator('#status')
          .count()
          .catch(() => 0)
      ) {
        // The Request tab holds the URL; open it to tell the panels apart.
        await frame
          .getByRole('tab', { name: 'Request', exact: true })
          .click({ timeout: 2_000 })
          .catch(() => {});
        if (
          await frame
            .locator('.reqline', { hasText: urlPart })
            .count()
            .catch(() => 0)
        )
          return frame;
      }
    }
    if (Date.now() > deadline) throw new Error(`no results view "${title}" showing ${urlPart}`);
    await page.waitForTimeout(250);
  }
}

const grantClipboard = (page) =>
  page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

/** Waits until the clipboard's text passes `test` (the copy goes extension host → workbench → browser). */
async function clipboardWhen(page, test, what) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = await clipboard(page).catch(() => '');
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the clipboard never held ${what} (it holds ${JSON.stringify(text.slice(0, 80))})`);
    await page.waitForTimeout(200);
  }
}

/** The request a results frame shows: its request line and header rows, as text. */
async function shownRequest(frame) {
  await frame.getByRole('tab', { name: 'Request', exact: true }).click();
  const line = (await frame.locator('.reqline').first().textContent())?.trim();
  const headers = await frame.locator('table.headers tr').allTextContents();
  return { line, headers: headers.map((h) => h.trim()).sort() };
}

export const curlSteps = [
  {
    name: 'cURL round trip: copy a request as cURL, make a new stream from it, and the new stream sends the same request',
    async run({ page, shot, demoUrl, secrets }) {
      const wb = workbench(page);
      await grantClipboard(page);
      await wb.ready();
      await wb.openFile(FILE);
      await lens(page, 'Set testing values').waitFor({ timeout: 30_000 });
      await lens(page, 'Set testing values').click();
      const form = await wb.webviewFrame(`Testing values: ${FILE}`);
      await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
      await form.locator('#f_url_base').fill(demoUrl);
      await form.locator('#f_api_key').fill(KEY);
      await form.locator('#save').click();
      await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });

      await page.locator('.tab', { hasText: 'api-key-auth.yaml' }).first().click();
      await lens(page, 'Run stream key_in_header').click();
      const first = await resultsFrame(page, 'Test read: key_in_header', '/auth/api-key/header/items');
      await first.locator('#status', { hasText: /\d+ records? in/ }).waitFor({ timeout: 60_000 });
      const original = await shownRequest(first);
      await first.locator('button.copy-curl-masked').click();
      const masked = await clipboardWhen(page, (t) => t.startsWith('curl '), 'a cURL command');
      if (!masked.includes("-H 'X-API-Key: ****'") || masked.includes(KEY)) throw new Error(`the copied command is not masked:\n${masked}`);
      await shot('60-results-copy-as-curl');

      // With the manifest's editor active, the new stream goes into it (its api_key input is reused).
      await page.locator('.tab', { hasText: 'api-key-auth.yaml' }).first().click();
      await wb.runCommand('New Stream from cURL…');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 10_000 });
      await page.waitForFunction(() => (document.querySelector('.quick-input-widget input')?.value ?? '').startsWith('curl '), null, {
        timeout: 10_000,
      });
      await shot('61-new-stream-from-curl-input');
      await page.keyboard.press('Enter');
      await lens(page, 'Run stream items').waitFor({ timeout: 30_000 });
      await page.locator('.view-lines', { hasText: 'name: items # last path segment of the URL' }).waitFor({ timeout: 10_000 });
      await shot('62-stream-added-with-comments');

      await lens(page, 'Run stream items').click();
      const second = await resultsFrame(page, 'Test read: items', '/auth/api-key/header/items');
      await second.locator('#status', { hasText: /\d+ records? in/ }).waitFor({ timeout: 60_000 });
      const again = await shownRequest(second);
      if (JSON.stringify(again) !== JSON.stringify(original))
        throw new Error(`the new stream's request differs:\n${JSON.stringify(original)}\n${JSON.stringify(again)}`);
      await shot('63-same-request-from-new-stream');

      await second.locator('button.copy-curl-secrets').click();
      await clipboardWhen(page, (t) => t.includes(`-H 'X-API-Key: ${KEY}'`), 'the command with the testing value');
      const html = await second.content();
      if (findSecretsIn(html, [...secrets, KEY]).length) throw new Error('the results view shows the key after a copy with secrets');
      // The clipboard is left without the key, and the manifest as it was, for the steps after this one.
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await shot('64-copied-with-secrets');
      await page.locator('.tab', { hasText: 'api-key-auth.yaml' }).first().click();
      await wb.runCommand('File: Revert File');
      await page.locator('.tab.dirty', { hasText: 'api-key-auth.yaml' }).waitFor({ state: 'detached', timeout: 10_000 });
    },
  },
  {
    name: 'New stream from HAR: pick entries of a HAR file, get a new manifest with field_path and primary key from the recorded responses',
    async run({ page, shot, run, demoUrl }) {
      const wb = workbench(page);
      const file = join(run, 'workspace', 'har', 'demo-session.har');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(demoHar(demoUrl), null, 2));
      await wb.ready();
      // A manifest's lenses show the extension and its server are up (when this step runs alone).
      await wb.openFile(FILE);
      // Attached is enough: after the cURL step the editor may be scrolled past it.
      await lens(page, 'Set testing values').waitFor({ state: 'attached', timeout: 60_000 });
      await wb.runCommand('View: Close All Editors');
      await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      await wb.runCommand('New Stream from HAR…');
      // The simple file dialog: type the file's path.
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 15_000 });
      await input.fill(file);
      // The dialog lists the folder as the path is typed: accept once it shows the file.
      const row = (text) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
      await row('demo-session.har').waitFor({ timeout: 15_000 });
      await page.locator('.quick-input-widget .monaco-button', { hasText: 'Read entries' }).click();
      await row('/offset/items').waitFor({ timeout: 20_000 });
      await row('favicon.ico').waitFor({ timeout: 5_000 });
      await row('GET ' + demoUrl + '/offset/items?limit=5').click();
      await row('/auth/bearer/items').click();
      await shot('65-har-entries-picked');
      await page.keyboard.press('Enter');
      const editor = page.locator('.monaco-editor .view-lines');
      // The header is always in view (field_path may be below the fold once lenses add lines; the saved text is checked below).
      await editor.filter({ hasText: 'Started from a HAR file' }).first().waitFor({ timeout: 20_000 });
      // An unsaved manifest.yaml in the workspace folder: its tab says what it is.
      await page.locator('.tab', { hasText: 'manifest.yaml' }).first().waitFor({ timeout: 10_000 });
      await page
        .locator('[id="status.problems"]', { hasText: /^\s*0\s+0/ })
        .waitFor({ timeout: 20_000 })
        .catch(async () => {
          throw new Error(`problems: ${await page.locator('[id="status.problems"]').textContent()}`);
        });
      await shot('66-new-manifest-from-har');
      // Save writes manifest.yaml in the workspace folder (a save dialog, where one opens, proposes it: Enter).
      const saved = join(run, 'workspace', 'manifest.yaml');
      await page.keyboard.press('Control+S');
      const dialog = page.locator('.quick-input-widget input');
      if (
        await dialog.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      ) {
        await page.waitForFunction(
          () => (document.querySelector('.quick-input-widget input')?.value ?? '').endsWith('/manifest.yaml'),
          null,
          { timeout: 10_000 },
        );
        await page.keyboard.press('Enter');
      }
      for (const deadline = Date.now() + 20_000; !existsSync(saved); ) {
        if (Date.now() > deadline) throw new Error('the new manifest was not saved');
        await page.waitForTimeout(200);
      }
      const text = readFileSync(saved, 'utf8');
      for (const expected of [
        'name: items',
        'name: items_2',
        '- data',
        "# the response's array of objects under data",
        'primary_key:',
        'type: BearerAuthenticator',
        'airbyte_secret: true',
      ]) {
        if (!text.includes(expected)) throw new Error(`the new manifest lacks "${expected}":\n${text}`);
      }
      if (text.includes('demo-bearer-token')) throw new Error("the HAR's token was written into the manifest");
      // The HAR is this step's own input and holds the token on purpose (as a browser saves it): removed,
      // so the secret scan after the run looks only at what the product wrote.
      rmSync(file, { force: true });
    },
  },
];

/** A HAR as a browser saves it: two API calls of the demo API with their JSON responses, and noise. */
function demoHar(demoUrl) {
  const entry = (url, headers, status, mimeType, text) => ({
    startedDateTime: '2026-11-27T06:00:00.000Z',
    time: 12,
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'Host', value: new URL(url).host },
        { name: 'User-Agent', value: 'Mozilla/5.0' },
        { name: 'Accept', value: 'application/json' },
        ...headers,
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: text.length, mimeType, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
  });
  const items = (n) => JSON.stringify({ data: Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })), total: 100 });
  return {
    log: {
      version: '1.2',
      creator: { name: 'e2e', version: '1' },
      entries: [
        entry(`${demoUrl}/offset/items?limit=5`, [], 200, 'application/json', items(5)),
        entry(`${demoUrl}/favicon.ico`, [], 404, 'text/html', 'not found'),
        entry(
          `${demoUrl}/auth/bearer/items`,
          [{ name: 'Authorization', value: 'Bearer demo-bearer-token' }],
          200,
          'application/json',
          items(3),
        ),
      ],
    },
  };
}
