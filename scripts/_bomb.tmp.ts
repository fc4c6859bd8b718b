import { parseManifest } from '../server/src/runtime/manifest/parse';
import { validateManifest } from '../server/src/runtime/manifest/validateManifest';
import { readFileSync } from 'node:fs';
function bomb(levels: number): string {
  const lines = ['version: 6.0.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [s]', 'definitions:'];
  for (let i = 0; i < levels; i++) lines.push(`  l${i}:`, `    a: "#/definitions/l${i + 1}"`, `    b: "#/definitions/l${i + 1}"`);
  lines.push(`  l${levels}: {x: 1}`);
  lines.push('streams:', '  - type: DeclarativeStream', '    name: s', '    retriever: "#/definitions/l0"');
  return lines.join('\n') + '\n';
}
const arg = process.argv[2];
const text = arg.endsWith('.yaml') ? readFileSync(arg, 'utf8') : bomb(Number(arg));
const t = performance.now();
const p = validateManifest(parseManifest(text));
console.log(text.length, 'bytes', Math.round(performance.now() - t), 'ms', Math.round(process.memoryUsage().rss / 1e6), 'MB', p.filter((x) => x.severity === 'error').slice(0, 2).map((x) => `${x.code}: ${x.message.slice(0, 150)} @${x.span.start}`));
import { resolveManifest } from '../server/src/runtime/manifest/resolve';
{ const t2 = performance.now(); const r = resolveManifest(parseManifest(text).value); console.log('resolve only', Math.round(performance.now() - t2), 'ms', r.problems.length); }
