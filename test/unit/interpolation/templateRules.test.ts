// Template rules and editor features over a small fixture manifest with a fixture catalog: templates
// found with exact document offsets, diagnostics located inside templates, completion, hover, definition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { resolveManifest } from '../../../server/src/runtime/manifest/resolve';
import type { TemplateContextKind } from '../../../server/src/runtime/interpolation/contextKinds';
import { templateProblems } from '../../../server/src/runtime/rules/templateRules';
import type { TemplateCatalog } from '../../../server/src/runtime/rules/templateFields';
import { templateAt } from '../../../server/src/features/jinjaCursor';
import { templateCompletions } from '../../../server/src/features/jinjaCompletion';
import { configDefinitionPath, templateHover } from '../../../server/src/features/jinjaHover';

const TEXT = readFileSync(join(__dirname, '..', '..', 'fixtures', 'templates', 'manifest.yaml'), 'utf8');

/** A fixture catalog: the fields of the fixture manifest and their template contexts (§3.6). */
const FIELDS: Record<string, Record<string, TemplateContextKind>> = {
  HttpRequester: { url_base: 'request', path: 'request', request_parameters: 'request', request_headers: 'request' },
  CursorPagination: { cursor_value: 'pagination_cursor', stop_condition: 'pagination_cursor' },
  DpathExtractor: { field_path: 'static' },
};
const catalog: TemplateCatalog = {
  contextFor: (t, f) => FIELDS[t]?.[f],
  isComponentType: (t) =>
    t in FIELDS || ['DeclarativeStream', 'SimpleRetriever', 'DefaultPaginator', 'RecordSelector', 'Spec', 'CheckStream'].includes(t),
};

function analyse() {
  const parsed = parseManifest(TEXT);
  const resolved = resolveManifest(parsed.value, { parsed });
  return { ...templateProblems(parsed, resolved, catalog), spec: (resolved.value as any).spec.connection_specification };
}

const at = (needle: string, delta = 0) => TEXT.indexOf(needle) + delta;

test('finds templates in plain, double-quoted, single-quoted and folded scalars with exact offsets', () => {
  const { templates } = analyse();
  const texts = templates.map((t) => t.text);
  assert.ok(texts.includes("https://{{ config['region'] }}.example.com/v1"));
  assert.ok(texts.includes("{{ config['page_size'] }}"), 'single-quoted with doubled quote');
  assert.ok(texts.includes("{{ next_page_token['next_page_token'] | default('') }}"), 'folded block');
  for (const t of templates) {
    t.text.split('').forEach((ch, i) => {
      if (ch === '{' || ch === '|' || /\w/.test(ch)) assert.equal(TEXT[t.offsets[i]], ch, `${t.text} @${i}`);
    });
  }
});

test('diagnostics: unknown filter, unavailable variable, stream_state, last_records, undeclared config key with did-you-mean', () => {
  const { problems } = analyse();
  const byCode = (c: string) =>
    problems
      .filter((p) => p.code === c)
      .map((p) => ({ text: TEXT.slice(p.span.start, p.span.end), message: p.message, severity: p.severity }));
  assert.deepEqual(
    byCode('template-syntax').map((p) => p.text),
    ['nope'],
  );
  const na = byCode('template-variable-not-available');
  assert.deepEqual(
    na.map((p) => p.text),
    ['last_record'],
  );
  assert.match(na[0].message, /not available in HttpRequester\.request_headers/);
  assert.deepEqual(
    byCode('template-stream-state').map((p) => [p.text, p.severity]),
    [['stream_state', 'error']],
  );
  assert.deepEqual(
    byCode('template-last-records').map((p) => [p.text, p.severity]),
    [['last_records', 'warning']],
  );
  const keys = byCode('template-undeclared-config-key');
  assert.equal(keys.length, 1);
  assert.equal(keys[0].text, "config.get('strat_date')");
  assert.match(keys[0].message, /Did you mean 'start_date'\?/);
});

test("completion: variables of the field, config keys after config. / config[' / nested, filters after |", () => {
  const { templates, spec } = analyse();
  const ctx = { spec, parameterKeys: ['entity'] };
  const labels = (offset: number) => templateCompletions(templateAt(templates, offset)!, ctx).map((i) => i.label);
  const pathOffset = at('stream_slice.id');
  const vars = labels(pathOffset);
  assert.ok(vars.includes('stream_slice') && vars.includes('next_page_token') && vars.includes('now_utc'));
  assert.ok(!vars.includes('response'));
  const cursorVars = labels(at('last_records[-1]'));
  assert.ok(cursorVars.includes('response') && cursorVars.includes('last_page_size') && cursorVars.includes('last_records'));
  assert.deepEqual(labels(at("config['region']", "config['".length)), ['region', 'start_date', 'page_size', 'credentials']);
  assert.ok(labels(at('default(')).includes('default'), 'filters after |');
});

test('hover: config key shows the spec property, variables their availability, filters their signature', () => {
  const { templates, spec } = analyse();
  const hover = (offset: number) => templateHover(templateAt(templates, offset)!, spec);
  const region = hover(at("config['region']", "config['r".length));
  assert.match(region!.markdown, /Region/);
  assert.match(region!.markdown, /API region/);
  assert.match(hover(at('last_record.id', 2))!.markdown, /Not available in HttpRequester\.request_headers/);
  assert.match(hover(at('default('))!.markdown, /default_value/);
  assert.deepEqual(configDefinitionPath(templateAt(templates, at("config['region']", 10))!, spec), [
    'spec',
    'connection_specification',
    'properties',
    'region',
  ]);
});

test('alias-free texts: only templates with a problem are located before `templates` is read, and the answers equal the eager walk', () => {
  const parsed = parseManifest(TEXT);
  const resolved = resolveManifest(parsed.value, { parsed });
  let lookups = 0;
  const counting = (aliasFree: boolean) => ({
    text: parsed.text,
    locator: {
      aliasFree,
      quickScalar: (path: (string | number)[], value: string) => {
        lookups++;
        return parsed.locator.quickScalar(path, value);
      },
      findSourceNode: (path: (string | number)[]) => parsed.locator.findSourceNode(path),
      scalarOffsets: (node: Parameters<typeof parsed.locator.scalarOffsets>[0], base: number) => parsed.locator.scalarOffsets(node, base),
    },
  });
  lookups = 0;
  const eager = templateProblems(counting(false) as never, resolved, catalog);
  const eagerLookups = lookups;
  lookups = 0;
  const lazy = templateProblems(counting(true) as never, resolved, catalog);
  const lazyLookups = lookups;
  const located = new Set(lazy.problems.map((p) => p.span.start));
  assert.ok(lazy.problems.length > 0, 'the fixture has template problems');
  assert.deepEqual(lazy.problems, eager.problems);
  // One lookup per template with a problem (a template may hold several), none for the others.
  assert.ok(lazyLookups <= lazy.problems.length && lazyLookups >= 1, `${lazyLookups} lookups for ${located.size} problem places`);
  assert.ok(eagerLookups > lazyLookups, `eager ${eagerLookups} > lazy ${lazyLookups}`);
  const shape = (ts: typeof eager.templates) =>
    ts.map((t) => ({ text: t.text, kind: t.kind, start: t.start, offsets: t.offsets, path: t.path }));
  assert.deepEqual(shape(lazy.templates), shape(eager.templates));
});
