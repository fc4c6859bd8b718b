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

test('the client imports nothing from server/ except protocol.ts and the pure modules of runtime/shared/', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'client', 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from\s*['"]([^'"]+)['"]/g)) {
      const allowed = m[1].endsWith('server/src/protocol') || /server\/src\/runtime\/shared\/[A-Za-z]+$/.test(m[1]);
      if (m[1].includes('/server/') && !allowed) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('runtime/shared/ modules import nothing (the client bundles them)', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src', 'runtime', 'shared'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
  }
  assert.deepEqual(offenders, []);
});
