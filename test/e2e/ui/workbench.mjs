// Small page-object over the VS Code workbench in Chromium: waiting for it, Quick Open, the command
// palette, and finding our webviews (each webview is an iframe inside an iframe).

/** Wraps a playwright page showing the workbench. */
export function workbench(page) {
  return {
    async ready() {
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.getByRole('treeitem').first().waitFor({ timeout: 60_000 });
    },
    /** Opens a workspace-relative file from the Explorer, expanding its folders (as a person would). */
    async openFile(relative) {
      const parts = relative.split('/');
      for (const [i, name] of parts.entries()) {
        const row = page.getByRole('treeitem', { name, exact: true }).first();
        await row.waitFor({ timeout: 20_000 });
        const last = i === parts.length - 1;
        if (!last && (await row.getAttribute('aria-expanded')) === 'true') continue;
        await row.click();
      }
      const name = parts[parts.length - 1];
      await page.locator('.tabs-container .tab', { hasText: name }).first().waitFor({ timeout: 20_000 });
    },
    /**
     * Opens completion at the cursor (Ctrl+Space) until a row containing `text` shows. On a loaded
     * machine the first request can outlast the widget's patience; a person presses again, so do we
     * (three tries of 20 s).
     */
    async suggestUntil(text) {
      const rows = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: text }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+Space');
        try {
          await rows.waitFor({ timeout: 20_000 });
          return;
        } catch (e) {
          if (attempt >= 3) throw e;
          await page.keyboard.press('Escape');
        }
      }
    },
    /** Runs a command by its title through the command palette. */
    async runCommand(title) {
      await page.keyboard.press('Control+Shift+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 10_000 });
      await input.fill(`>${title}`);
      await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
      // The palette matches loosely ("Run Stream" also finds "Run All Streams", listed first): pick the row
      // whose label is exactly the title when there is one, as a person reading the list would.
      const exact = page
        .locator('.quick-input-list .monaco-list-row .label-name')
        .filter({ hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
        .first();
      if (await exact.count()) await exact.click();
      else await page.keyboard.press('Enter');
    },
    /** The frame of the webview whose panel title is `title` (the inner iframe holds our HTML). */
    async webviewFrame(title, timeout = 30_000) {
      const deadline = Date.now() + timeout;
      for (;;) {
        for (const frame of page.frames()) {
          if (frame.url().startsWith('about:') || !frame.url().includes('fake.html')) continue;
          const t = await frame.title().catch(() => '');
          if (t === title) return frame;
        }
        if (Date.now() > deadline) throw new Error(`no webview titled "${title}" appeared`);
        await page.waitForTimeout(200);
      }
    },
  };
}
