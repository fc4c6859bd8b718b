// Bundles the extension, the language server, the CLI and the runtime library into out/ (CommonJS).
// `vscode` is provided by the extension host and is the only external of the client bundle.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
// `npm run package` minifies: the .vsix ships the bundles only, their source maps stay out of it.
const minify = process.argv.includes('--minify');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  minify,
};
const builds = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'out/extension.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'out/server.js' },
  { entryPoints: ['server/src/runtime/cli.ts'], outfile: 'out/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['server/src/runtime/index.ts'], outfile: 'out/runtime.js' },
  // Webview scripts run in the browser sandbox of a webview panel.
  { entryPoints: ['client/src/webview/results.ts', 'client/src/webview/form.ts'], outdir: 'out/webview', platform: 'browser', format: 'iife', target: 'es2022' },
];

if (watch) {
  for (const b of builds) {
    const ctx = await esbuild.context({ ...common, ...b });
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
}
