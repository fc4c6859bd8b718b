// Seeded generators of broken manifests for the robustness tests: truncations, byte flips, line
// edits, and the pathological inputs (deep nesting, a 5 MB file, an alias bomb).
import { fanOutManifest } from './hostileInputs';

/** A small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters that matter to YAML, plus a surrogate half and a control character.
const NOISE = [
  ' ',
  ':',
  '-',
  '#',
  '{',
  '}',
  '[',
  ']',
  "'",
  '"',
  '\n',
  '\t',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '?',
  ',',
  '\\',
  '\ud800',
  '\u0000',
  'é',
  '#/',
  '$ref: ',
  '{{',
  '}}',
];

/** One mutation of `text` chosen by `rnd`. */
export function mutate(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  switch (Math.floor(rnd() * 7)) {
    case 0:
      return text.slice(0, at);
    case 1: {
      let out = text;
      for (let i = 0, n = 1 + Math.floor(rnd() * 8); i < n; i++) {
        const p = Math.floor(rnd() * out.length);
        out = out.slice(0, p) + pick(NOISE) + out.slice(p + 1);
      }
      return out;
    }
    case 2:
      return text.slice(0, at) + pick(NOISE) + text.slice(at);
    case 3: {
      const lines = text.split('\n');
      lines.splice(Math.floor(rnd() * lines.length), 1 + Math.floor(rnd() * 3));
      return lines.join('\n');
    }
    case 4: {
      const lines = text.split('\n');
      const i = Math.floor(rnd() * lines.length);
      lines[i] = (rnd() < 0.5 ? '  ' : '') + lines[i].replace(/^ {1,3}/, '');
      return lines.join('\n');
    }
    case 5: {
      const from = Math.floor(rnd() * text.length);
      return text.slice(0, at) + text.slice(from, from + Math.floor(rnd() * 400)) + text.slice(at);
    }
    default:
      return text.slice(0, at) + text.slice(at + Math.floor(rnd() * 200));
  }
}

/** Inputs that stress the parser's limits rather than its grammar. */
export function pathologicalInputs(): Record<string, string> {
  const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) {
    const prev = String.fromCharCode(96 + i);
    lol.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return {
    'flow nesting 10,000 deep': `streams: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    'flow mapping nesting 10,000 deep': `streams: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`,
    'sequence nesting 10,000 deep': `streams:\n  ${'- '.repeat(10_000)}x\n`,
    'block nesting 3,000 deep': Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n',
    'alias bomb': `${lol.join('\n')}\nstreams: *j\n`,
    'a 5 MB manifest': bigManifest(5_000_000),
    'binary noise': Array.from({ length: 20_000 }, (_, i) => String.fromCharCode((i * 7919) % 65_536)).join(''),
    'reference fan-out 30 levels': fanOutManifest(30),
    'filter bombs in templates': `version: 6.0.0\nstreams:\n  - type: DeclarativeStream\n    name: s\n    retriever:\n      type: SimpleRetriever\n      requester:\n        type: HttpRequester\n        url_base: "{{ config.list | slice(10**9) | list }}{{ 'x' | center(10**8) }}{{ ('a' * 50000) | regex_search('^(a|a)*$') }}"\n`,
    'a 1 MB key': `version: 6.0.0\n${'k'.repeat(1_000_000)}: 1\nstreams: []\n`,
  };
}

/** A valid manifest of about `bytes` characters (many streams with inline schemas). */
export function bigManifest(bytes: number): string {
  const out = ['version: 6.4.0', 'type: DeclarativeSource', 'streams:'];
  let size = 0;
  for (let s = 0; size < bytes; s++) {
    const block = [
      '  - type: DeclarativeStream',
      `    name: stream_${s}`,
      '    retriever:',
      '      type: SimpleRetriever',
      '      requester:',
      '        type: HttpRequester',
      '        url_base: https://api.example.test',
      `        path: /items/${s}`,
      '      record_selector:',
      '        type: RecordSelector',
      '        extractor:',
      '          type: DpathExtractor',
      '          field_path: [data]',
      '    schema_loader:',
      '      type: InlineSchemaLoader',
      '      schema:',
      '        type: object',
      '        properties:',
      ...Array.from({ length: 20 }, (_, p) => `          field_${p}:\n            type: [string, "null"]`),
    ].join('\n');
    out.push(block);
    size += block.length;
  }
  return out.join('\n') + '\n';
}
