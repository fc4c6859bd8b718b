// The lens sequence (issue 19): Run stream / Replay cassette lenses clicked the way a person clicks them,
// across every event that re-asks the lenses (OAuth Authenticate, a captured read, a saved cassette,
// Close All Editors and reopen, an edit). Each click must start a new read of its stream; VS Code's
// "Actual command not found, wanted to execute airbyte.runStream/NNN" (a lens whose command was released)
// fails the step at once.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbench } from './workbench.mjs';

const PAGES = 'demo/page-increment.yaml';
const OAUTH = 'demo/oauth-consent.yaml';
const lensLink = (page, text) => page.locator('.codelens-decoration a', { hasText: text }).first();

/** Counts the clicks of one run of the sequence; the step fails below 20. */
export function lensClicks() {
  let clicks = 0;
  return {
    add() {
      clicks++;
    },
    get count() {
      return clicks;
    },
  };
}

/** The read number the stream's results view shows (0 before any read of it). */
async function readNumberOf(page, stream) {
  for (const frame of page.frames()) {
    if (!frame.url().includes('fake.html')) continue;
    if ((await frame.title().catch(() => '')) !== `Test read: ${stream}`) continue;
    const n = await frame
      .locator('#status')
      .getAttribute('data-read', { timeout: 2_000 })
      .catch(() => null);
    if (n !== null) return { frame, n: Number(n) };
  }
  return { frame: null, n: 0 };
}

/** Shows the lines of `name: <stream>` in the active editor as a person would: Go to Line. */
async function reveal(page, run, file, stream) {
  const lines = readFileSync(join(run, 'workspace', file), 'utf8').split('\n');
  const at = lines.findIndex((l) => new RegExp(`^\\s*name: ${stream}\\s*$`).test(l));
  if (at < 0) throw new Error(`no stream ${stream} in ${file}`);
  await workbench(page).runCommand('Go to Line/Column...');
  await page.keyboard.type(`${at + 1}:1`);
  await page.keyboard.press('Enter');
}

/**
 * Clicks the lens `title` of `stream` and waits until the stream's results view shows a new, finished read.
 * A "command not found" notification, or no new read within the deadline, is a failure.
 */
async function clickAndExpectRead(ctx, { title, stream, event, beforeClick }) {
  const { page, clicks, log } = ctx;
  const before = (await readNumberOf(page, stream)).n;
  // What brings the lens into view (a scroll) runs right before the click, as a person scrolls and clicks.
  if (beforeClick) await beforeClick();
  const link = lensLink(page, title);
  await link.waitFor({ timeout: 30_000 });
  await link.click();
  clicks.add();
  const notFound = page.locator('.notification-list-item', { hasText: 'Actual command not found' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (await notFound.count()) {
      const text = (await notFound.first().textContent())?.trim();
      await ctx.shot(`lens-failed-${clicks.count}`);
      throw new Error(`click ${clicks.count} (${title}, ${event}): ${text}`);
    }
    const { frame, n } = await readNumberOf(page, stream);
    if (
      frame &&
      n > before &&
      (await frame
        .locator('#status')
        .getAttribute('data-running')
        .catch(() => 'true')) === 'false'
    ) {
      const status = (await frame.locator('#status').textContent())?.trim();
      log(`    click ${clicks.count}: ${title} (${event}) → read ${n}: ${status}`);
      return frame;
    }
    if (Date.now() > deadline) {
      await ctx.shot(`lens-no-read-${clicks.count}`);
      throw new Error(`click ${clicks.count} (${title}, ${event}): no new read of '${stream}' within 60 s`);
    }
    await page.waitForTimeout(200);
  }
}

async function closeAll(page) {
  await workbench(page).runCommand('View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
}

async function focusManifest(page, file) {
  await page
    .locator('.tab', { hasText: file.split('/').pop() })
    .first()
    .click();
}

async function saveTestingValues(page, file, fill) {
  await lensLink(page, 'Set testing values').click();
  const form = await workbench(page).webviewFrame(`Testing values: ${file}`);
  await form.locator('#f_url_base').waitFor({ timeout: 20_000 });
  await fill(form);
  await form.locator('#save').click();
  await form.getByText("Saved to VS Code's secret storage").waitFor({ timeout: 10_000 });
  return form;
}

/** Saves the last read of the results view as a cassette (the view's button, then the save dialog). */
async function saveCassette(page, run, results, stream) {
  await results.locator('#save-cassette').click();
  await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => (document.querySelector('.quick-input-widget input')?.value ?? '').endsWith('.yaml'), null, {
    timeout: 10_000,
  });
  await page.keyboard.press('Enter');
  const createFolder = page.locator('.quick-input-widget', { hasText: 'does not exist. Would you like to create it?' });
  if (
    await createFolder.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    )
  )
    await page.keyboard.press('Enter');
  // An earlier step may have saved this stream's cassette already: VS Code then asks before replacing it.
  // (the save dialog's input turns into "… already exists. Are you sure you want to overwrite it?": Enter is OK).
  const overwrite = page.locator('.quick-input-widget', { hasText: 'already exists. Are you sure you want to overwrite it?' });
  if (
    await overwrite.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    )
  )
    await page.keyboard.press('Enter');
  const file = join(run, 'workspace', 'demo', 'cassettes', `${stream}.cassette.yaml`);
  for (const deadline = Date.now() + 20_000; !existsSync(file); ) {
    if (Date.now() > deadline) throw new Error('the cassette was not written');
    await page.waitForTimeout(200);
  }
}

export const lensSequenceSteps = [
  {
    name: 'lens sequence: a lens refreshed while out of view runs its stream when clicked as it comes into view',
    async run(ctx) {
      const { page, demoUrl, shot } = ctx;
      const clicks = lensClicks();
      const c = { ...ctx, clicks };
      const wb = workbench(page);
      await wb.ready();
      await closeAll(page);
      await wb.openFile(OAUTH);
      await saveTestingValues(page, OAUTH, async (f) => {
        await f.locator('#f_url_base').fill(demoUrl);
        await f.locator('#f_client_id').fill('demo-client');
        await f.locator('#f_client_secret').fill('demo-secret');
      });
      await focusManifest(page, OAUTH);
      // The stream (line 64) is below the fold; a read from the palette refreshes every lens while it is out of view.
      await wb.runCommand('Go to Line/Column...');
      await page.keyboard.type('1:1');
      await page.keyboard.press('Enter');
      await wb.runCommand('Airbyte: Run Stream');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'oauth_consented_items' })
        .first()
        .waitFor({ timeout: 3_000 })
        .then(
          () => page.keyboard.press('Enter'),
          () => {},
        );
      const results = await wb.webviewFrame('Test read: oauth_consented_items', 60_000);
      await results.locator('#status[data-running="false"]').waitFor({ timeout: 60_000 });
      // Deliberate waits (no event tells a test that VS Code re-fetched its lenses): the refresh after the
      // read, debounced, must be fetched and resolved while the stream's lens is still out of view.
      await page.waitForTimeout(3_000);
      // Scrolled into view and clicked at once, as a person who scrolls and clicks does: VS Code updates the
      // commands of lenses that were out of view a few hundred milliseconds after they come into view.
      await focusManifest(page, OAUTH);
      await page.waitForTimeout(2_000); // focusing the editor re-fetches the lenses too; let that settle out of view
      await clickAndExpectRead(c, {
        title: 'Run stream oauth_consented_items',
        stream: 'oauth_consented_items',
        event: 'refreshed out of view, clicked as it scrolls into view',
        beforeClick: () => page.keyboard.press('Control+End'),
      });
      await shot('39-lens-refreshed-out-of-view');
    },
  },
  {
    name: 'lens sequence: 20+ Run stream / Replay clicks across Authenticate, reads, a saved cassette, close/reopen and edits',
    async run(ctx) {
      const { page, run, demoUrl, shot, log } = ctx;
      const clicks = lensClicks();
      const c = { ...ctx, clicks };
      const wb = workbench(page);
      await wb.ready();
      await closeAll(page);

      // OAuth: Authenticate in the testing-values form, then run the stream three times (each read rotates the token).
      await wb.openFile(OAUTH);
      // The lenses are there (the one above spec is in view; "Authenticate with OAuth" above advanced_auth may be below the fold).
      await lensLink(page, 'Set testing values').waitFor({ state: 'attached', timeout: 30_000 });
      const form = await saveTestingValues(page, OAUTH, async (f) => {
        await f.locator('#f_url_base').fill(demoUrl);
        await f.locator('#f_client_id').fill('demo-client');
        await f.locator('#f_client_secret').fill('demo-secret');
      });
      const popup = page.context().waitForEvent('page', { timeout: 30_000 });
      await form.locator('#authenticate').click();
      const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
      await Promise.race([open.waitFor({ timeout: 15_000 }).then(() => open.click()), popup]).catch(() => {});
      const consent = await popup;
      await consent.getByText('VS Code received the authorization').waitFor({ timeout: 30_000 });
      await consent.close();
      await form.waitForFunction(() => (document.getElementById('f_credentials_access_token')?.value ?? '') !== '', null, {
        timeout: 30_000,
      });
      await focusManifest(page, OAUTH);
      await reveal(page, run, OAUTH, 'oauth_consented_items');
      for (let i = 0; i < 3; i++)
        await clickAndExpectRead(c, {
          title: 'Run stream oauth_consented_items',
          stream: 'oauth_consented_items',
          event: i ? 'after a read' : 'after Authenticate',
        });
      await shot('40-lens-sequence-after-authenticate');

      // Reads of another manifest: two streams alternately (every read refreshes the lenses).
      await wb.openFile(PAGES);
      await saveTestingValues(page, PAGES, (f) => f.locator('#f_url_base').fill(demoUrl));
      await focusManifest(page, PAGES);
      for (let i = 0; i < 6; i++) {
        const stream = i % 2 ? 'pages_one_based' : 'pages_zero_based';
        await clickAndExpectRead(c, { title: `Run stream ${stream}`, stream, event: i ? 'after a read' : 'after the form was saved' });
      }

      // Back to the OAuth manifest's tab: its lenses were refreshed while it was hidden.
      await focusManifest(page, OAUTH);
      await clickAndExpectRead(c, {
        title: 'Run stream oauth_consented_items',
        stream: 'oauth_consented_items',
        event: 'after reads of another manifest',
      });

      // A saved cassette adds the Replay lens (the client's provider refreshes).
      await focusManifest(page, PAGES);
      const results = await clickAndExpectRead(c, {
        title: 'Run stream pages_zero_based',
        stream: 'pages_zero_based',
        event: 'before saving a cassette',
      });
      await saveCassette(page, run, results, 'pages_zero_based');
      await focusManifest(page, PAGES);
      await lensLink(page, 'Replay cassette').waitFor({ timeout: 30_000 });
      await clickAndExpectRead(c, { title: 'Replay cassette', stream: 'pages_zero_based', event: 'after a cassette was saved' });
      await clickAndExpectRead(c, { title: 'Run stream pages_one_based', stream: 'pages_one_based', event: 'after a cassette was saved' });
      await clickAndExpectRead(c, { title: 'Run stream pages_zero_based', stream: 'pages_zero_based', event: 'after a replay' });

      // Close All Editors, reopen: the lenses come back and run.
      for (let round = 0; round < 2; round++) {
        await closeAll(page);
        await wb.openFile(PAGES);
        await clickAndExpectRead(c, { title: 'Run stream pages_one_based', stream: 'pages_one_based', event: 'after close and reopen' });
        await clickAndExpectRead(c, { title: 'Run stream pages_zero_based', stream: 'pages_zero_based', event: 'after close and reopen' });
      }
      await closeAll(page);
      await wb.openFile(OAUTH);
      await reveal(page, run, OAUTH, 'oauth_consented_items');
      await clickAndExpectRead(c, {
        title: 'Run stream oauth_consented_items',
        stream: 'oauth_consented_items',
        event: 'after close and reopen',
      });

      // Edits: a comment typed at the top of the file (the lenses move one line down), then undone.
      await closeAll(page);
      await wb.openFile(PAGES);
      await page.locator('.view-lines', { hasText: 'pages_zero_based' }).first().waitFor({ timeout: 20_000 });
      await wb.runCommand('Go to Line/Column...');
      await page.keyboard.type('1:1');
      await page.keyboard.press('Enter');
      await page.keyboard.type('# edited by the lens sequence\n');
      await clickAndExpectRead(c, { title: 'Run stream pages_zero_based', stream: 'pages_zero_based', event: 'after an edit' });
      await clickAndExpectRead(c, { title: 'Run stream pages_one_based', stream: 'pages_one_based', event: 'after an edit' });
      // Back to the file on disk (the edit is dropped), as "File: Revert File" does for a person.
      await focusManifest(page, PAGES);
      await wb.runCommand('File: Revert File');
      await page
        .locator('.view-lines', { hasText: '# edited by the lens sequence' })
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 });
      await clickAndExpectRead(c, { title: 'Run stream pages_zero_based', stream: 'pages_zero_based', event: 'after Revert File' });
      await shot('41-lens-sequence-done');
      log(`    lens sequence: ${clicks.count} clicks, 0 failures`);
      if (clicks.count < 20) throw new Error(`only ${clicks.count} lens clicks`);
    },
  },
];
