// The UI steps, in order. Each waits for what a person would see (selectors with deadlines, no sleeps)
// and takes a screenshot that the run keeps for inspection.
import { workbench } from './workbench.mjs';

export const steps = [
  {
    name: 'open the demo manifest',
    async run({ page, shot }) {
      const wb = workbench(page);
      await wb.ready();
      await wb.openFile('broken/manifest.yaml');
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30_000 });
      await page.getByText('DeclarativeSource').first().waitFor({ timeout: 30_000 });
      await shot('01-manifest-open');
    },
  },
];
