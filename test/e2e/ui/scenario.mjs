// The UI phase: drives the workbench the way a person does (open the manifest, fill the testing-values
// form, click "Run stream", see records) and saves a screenshot of each step under .e2e/screenshots/.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { steps as baseSteps } from './steps.mjs';
import { authoringSteps } from './authoringSteps.mjs';
import { incrementalSteps } from './incrementalSteps.mjs';
import { scaffoldSteps } from './scaffoldSteps.mjs';
import { curlSteps } from './curlSteps.mjs';

const steps = [...baseSteps, ...incrementalSteps, ...scaffoldSteps];

const SECRETS = JSON.parse(readFileSync(fileURLToPath(new URL('../secretValues.json', import.meta.url)), 'utf8')).values;

/** Runs every UI step in one workbench page; resolves true when all pass. */
export async function runUiScenario({ browser, baseUrl, root, run, screenshots, log, demoUrl }) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const remote = (p) => `vscode-remote://${new URL(baseUrl).host}${p}`;
  const payload = [['extensionDevelopmentPath', remote(root)]];
  await page.goto(
    `${baseUrl}/?folder=${encodeURIComponent(join(run, 'workspace'))}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
  );
  const ctx = {
    page,
    baseUrl,
    run,
    demoUrl,
    log,
    secrets: SECRETS,
    shot: (name) => page.screenshot({ path: join(screenshots, `${name}.png`) }),
  };
  let ok = true;
  // E2E_UI_STEPS=<regex> / E2E_UI_GREP=<regex> (or E2E_UI_ONLY=<text>[|<text>…]): only the matching steps, while working on them; CI runs all.
  const onlyRe =
    process.env.E2E_UI_STEPS || process.env.E2E_UI_GREP ? new RegExp(process.env.E2E_UI_STEPS || process.env.E2E_UI_GREP) : null;
  const only = process.env.E2E_UI_ONLY?.split('|').filter(Boolean);
  const chosen = (s) => (!onlyRe || onlyRe.test(s.name)) && (!only?.length || only.some((o) => s.name.includes(o)));
  // E2E_UI_FROM=<regex>: start at the first step whose name matches (to resume after a failure).
  const all = [...steps, ...authoringSteps, ...curlSteps];
  const fromRe = process.env.E2E_UI_FROM ? new RegExp(process.env.E2E_UI_FROM) : null;
  const from = fromRe
    ? Math.max(
        0,
        all.findIndex((s) => fromRe.test(s.name)),
      )
    : 0;
  for (const step of all.slice(from).filter(chosen)) {
    const t = Date.now();
    try {
      await step.run(ctx);
      log(`  ui ✓ ${step.name} (${Date.now() - t} ms)`);
    } catch (e) {
      ok = false;
      log(`  ui ✗ ${step.name}: ${e.message}`);
      await ctx.shot(`failed-${step.name.replace(/\W+/g, '-')}`).catch(() => {});
      break; // later steps build on earlier ones
    }
  }
  await context.close().catch(() => {});
  return ok;
}
