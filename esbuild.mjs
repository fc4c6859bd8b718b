// Bundles the extension, the language server, the CLI and the runtime library into out/ (CommonJS).
// `vscode` is provided by the extension host and is the only external of the client bundle.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { copyFileSync, mkdirSync } from 'node:fs';

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
// The language server gets its component validators as standalone ajv code generated here from the
// catalog (scripts/precompileValidators.ts), instead of compiling them when the first manifest opens.
async function precompiledValidatorsPlugin() {
  const generator = await esbuild.build({
    ...common,
    entryPoints: ['scripts/precompileValidators.ts'],
    write: false,
    sourcemap: false,
    minify: false,
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', generator.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  const contents = module.exports.precompiledValidatorsModule();
  return {
    name: 'precompiled-validators',
    setup(build) {
      build.onResolve({ filter: /\/precompiledValidators$/ }, (args) => ({
        path: join(args.resolveDir, 'precompiledValidators.generated.js'),
      }));
      build.onLoad({ filter: /precompiledValidators\.generated\.js$/ }, () => ({
        contents,
        loader: 'js',
        resolveDir: join(process.cwd(), 'server/src/runtime/schema'),
      }));
    },
  };
}

// curlconverter parses shell with tree-sitter; its own `./Parser.js` loads the native addon, so the
// bundles get the WebAssembly parser of runtime/scaffold/curl/bashParser.ts instead, with its two
// .wasm files copied beside them (docs/scaffold.md).
const wasmBashParserPlugin = {
  name: 'wasm-bash-parser',
  setup(build) {
    build.onResolve({ filter: /^\.\/Parser\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'curlconverter')}`)
        ? { path: join(process.cwd(), 'server/src/runtime/scaffold/curl/bashParser.ts') }
        : undefined,
    );
    build.onEnd(() => {
      mkdirSync('out', { recursive: true });
      copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'out/tree-sitter.wasm');
      copyFileSync('node_modules/curlconverter/dist/tree-sitter-bash.wasm', 'out/tree-sitter-bash.wasm');
    });
  },
};

const builds = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'out/extension.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'out/server.js', plugins: [await precompiledValidatorsPlugin(), wasmBashParserPlugin] },
  { entryPoints: ['server/src/cli.ts'], outfile: 'out/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [wasmBashParserPlugin] },
  { entryPoints: ['server/src/runtime/index.ts'], outfile: 'out/runtime.js', plugins: [wasmBashParserPlugin] },
  // Webview scripts run in the browser sandbox of a webview panel.
  {
    entryPoints: [
      'client/src/webview/results.ts',
      'client/src/webview/form.ts',
      'client/src/webview/limits.ts',
      'client/src/webview/compare.ts',
      'client/src/webview/stateForm.ts',
      'client/src/webview/readiness.ts',
    ],
    outdir: 'out/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

if (watch) {
  for (const b of builds) {
    const ctx = await esbuild.context({ ...common, ...b });
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
}
