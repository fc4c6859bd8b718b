// The Jinja injection grammar, tokenized with vscode-textmate + vscode-oniguruma over a minimal
// YAML host grammar (test fixture): delimiters, variables, filters, macros and strings get scopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from 'vscode-textmate';

const ROOT = join(__dirname, '..', '..');
const INJECTION = join(ROOT, 'syntaxes', 'jinja-yaml.injection.tmLanguage.json');
const HOST = join(ROOT, 'test', 'fixtures', 'grammar', 'yaml-host.tmLanguage.json');

let grammar: Promise<IGrammar>;
function loadGrammar(): Promise<IGrammar> {
  grammar ??= (async () => {
    const wasm = readFileSync(join(ROOT, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
        createOnigString: (s: string) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async (scope: string) => {
        const file = scope === 'source.yaml' ? HOST : scope === 'airbyte.jinja.injection' ? INJECTION : null;
        return file ? parseRawGrammar(readFileSync(file, 'utf8'), file) : null;
      },
      getInjections: (scope: string) => (scope === 'source.yaml' ? ['airbyte.jinja.injection'] : []),
    });
    const g = await registry.loadGrammar('source.yaml');
    if (!g) throw new Error('grammar did not load');
    return g;
  })();
  return grammar;
}

/** Tokens of one line as [text, innermost scope]. */
async function tokens(line: string): Promise<[string, string][]> {
  const g = await loadGrammar();
  const r = g.tokenizeLine(line, INITIAL);
  return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]);
}

function scopeOf(toks: [string, string][], text: string): string | undefined {
  return toks.find(([t]) => t.trim() === text)?.[1];
}

test('delimiters, variables, properties and strings inside a plain scalar', async () => {
  const t = await tokens("url_base: https://api.example.com/{{ config['region'] }}/v1");
  assert.equal(scopeOf(t, '{{'), 'punctuation.definition.tag.begin.jinja');
  assert.equal(scopeOf(t, '}}'), 'punctuation.definition.tag.end.jinja');
  assert.equal(scopeOf(t, 'config'), 'variable.language.jinja');
  assert.equal(scopeOf(t, 'region'), 'string.quoted.single.jinja');
  assert.equal(scopeOf(t, '/v1'), 'string.unquoted.plain.out.yaml');
});

test('filters and macros inside a double-quoted scalar', async () => {
  const t = await tokens('    value: "{{ format_datetime(config.start, \'%s\') | int }}"');
  assert.equal(scopeOf(t, 'format_datetime'), 'support.function.macro.jinja');
  assert.equal(scopeOf(t, 'start'), 'variable.other.property.jinja');
  assert.equal(scopeOf(t, 'int'), 'support.function.filter.jinja');
  assert.equal(scopeOf(t, '|'), 'keyword.operator.filter.jinja');
});

test('statements, tests and comments', async () => {
  const t = await tokens('cond: "{% if response.next is none %}stop{% endif %}{# note #}"');
  assert.equal(scopeOf(t, 'if'), 'keyword.control.jinja');
  assert.equal(scopeOf(t, 'is'), 'keyword.operator.word.jinja');
  assert.equal(scopeOf(t, 'none'), 'constant.language.jinja');
  assert.equal(scopeOf(t, 'endif'), 'keyword.control.jinja');
  assert.ok(t.some(([text, scope]) => text.includes('note') && scope === 'comment.block.jinja'));
});

test('no template scopes in YAML comments or plain text', async () => {
  const t = await tokens('# {{ config.x }} in a comment');
  assert.ok(t.every(([, scope]) => !scope.endsWith('.jinja')));
  const plain = await tokens('name: users');
  assert.ok(plain.every(([, scope]) => !scope.endsWith('.jinja')));
});
