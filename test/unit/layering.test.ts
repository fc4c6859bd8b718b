import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

test('the runtime imports neither vscode nor the language server, nor anything outside runtime/', () => {
  const runtimeDir = join(ROOT, 'server', 'src', 'runtime');
  const offenders: string[] = [];
  for (const file of sources(runtimeDir)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      const bad = spec === 'vscode' || spec.startsWith('vscode-languageserver') ||
        (spec.startsWith('.') && !join(file, '..', spec).startsWith(runtimeDir));
      if (bad) offenders.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the client imports nothing from server/ except protocol.ts, the pure modules of runtime/shared/ and (outside the webview) the files policy of runtime/files/', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'client', 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from\s*['"]([^'"]+)['"]/g)) {
      // runtime/files/ is the Node-only files policy (docs/security.md "Files"): the extension host uses it, the webview never.
      const nodeOnly = /server\/src\/runtime\/files\/[A-Za-z]+$/.test(m[1]) && !file.includes(join('client', 'src', 'webview'));
      const allowed = m[1].endsWith('server/src/protocol') || /server\/src\/runtime\/shared\/[A-Za-z]+$/.test(m[1]) || nodeOnly;
      if (m[1].includes('/server/') && !allowed) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

/** The code of a source file without its comments (so prose about "the connection" is not code). */
function code(file: string): string {
  return readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

test('offsets become LSP positions only in server/src/convert.ts', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src'))) {
    if (file.endsWith(join('server', 'src', 'convert.ts'))) continue;
    const text = code(file);
    const patterns: Array<[RegExp, string]> = [
      [/\.(?:positionAt|offsetAt)\(/, 'converts offsets and positions'],
      [/\.(?:start|end|position)\.(?:line|character)\b/, 'reads a line or character of a position'],
      [/\{\s*line:\s*[^,}]+,\s*character:/, 'builds a position'],
    ];
    for (const [pattern, what] of patterns) if (pattern.test(text)) offenders.push(`${relative(ROOT, file)} ${what}`);
  }
  assert.deepEqual(offenders, []);
});

test('only languageServer.ts and the entry server.ts touch the connection; handlers and features never take it', () => {
  const allowed = new Set([join('server', 'src', 'languageServer.ts'), join('server', 'src', 'server.ts')]);
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src'))) {
    const rel = relative(ROOT, file);
    // The runtime cannot import the protocol library at all (first test); its `connection` words are config keys.
    if (allowed.has(rel) || rel.startsWith(join('server', 'src', 'runtime'))) continue;
    const text = code(file);
    if (/\bConnection\b/.test(text) || /\bconnection\s*[.:,)]/.test(text) || /\bcreateConnection\b/.test(text)) offenders.push(rel);
  }
  assert.deepEqual(offenders, []);
});

test('runtime/shared/ modules import nothing but each other (the client bundles them)', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src', 'runtime', 'shared'))) {
    const text = readFileSync(file, 'utf8');
    // Another module of shared/ is pure too (shared/safeObject.ts, the own-key helpers), so it may be imported.
    for (const m of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) if (!/^\.\/[A-Za-z]+$/.test(m[1])) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
  }
  assert.deepEqual(offenders, []);
});
