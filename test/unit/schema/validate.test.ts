import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, errors, fixture, hints, manifest } from './helpers';

test('the complete fixture and the minimal manifest have no errors or warnings', () => {
  assert.deepEqual(
    check(fixture('complete.yaml')).filter((p) => p.severity !== 'information'),
    [],
  );
  assert.deepEqual(check(manifest()), []);
});

test('deprecated fields are hints on the key, with the replacement', () => {
  const h = hints(manifest());
  assert.deepEqual(
    h.map((p) => [p.code, p.at]),
    [
      ['deprecated', 'url_base'],
      ['deprecated', 'path'],
    ],
  );
  assert.equal(h[1].message, '`HttpRequester.path` is deprecated: use `url` with the full endpoint URL.');
  assert.deepEqual(
    hints(
      manifest()
        .replace('url_base: https://api.example.com', 'url: https://api.example.com/items')
        .replace(/\n\s+path: \/items/, ''),
    ),
    [],
  );
});

test('a missing required field names the component and sits on the component key', () => {
  const text = manifest({
    requester: '        type: HttpRequester\n        url_base: https://x\n        authenticator:\n          type: BearerAuthenticator',
  });
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.equal(e[0].message, 'BearerAuthenticator: missing required field `api_token`.');
  assert.equal(e[0].at, 'authenticator');
});

test('an unknown type lists the types of the slot and suggests the closest', () => {
  const text = manifest().replace('type: BearerAuthenticator', 'type: BearerAuthenticater');
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.equal(e[0].code, 'unknown-type');
  assert.match(
    e[0].message,
    /Unknown component type `BearerAuthenticater` in HttpRequester.authenticator\. Expected one of: .*OAuthAuthenticator.*\. Did you mean `BearerAuthenticator`\?/,
  );
  assert.equal(e[0].at, 'BearerAuthenticater');
});

test('a type name typed short (BearerAuth) suggests the one type it begins', () => {
  const text = manifest().replace('type: BearerAuthenticator', 'type: BearerAuth');
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.match(e[0].message, /Did you mean `BearerAuthenticator`\?/);
});

test('a known type in the wrong slot is refused with the allowed list', () => {
  const text = manifest().replace('type: BearerAuthenticator', 'type: DpathExtractor');
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.match(e[0].message, /^`DpathExtractor` is not allowed in HttpRequester.authenticator\. Expected one of: /);
});

test('a wrong enum value is an error on the value with a suggestion', () => {
  const text = manifest().replace('path: /items', 'path: /items\n        http_method: PSOT');
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.equal(e[0].at, 'PSOT');
  assert.equal(e[0].message, 'HttpRequester: `http_method` must be one of `GET`, `POST`, not the string "PSOT". Did you mean `POST`?');
});

test('a wrong JSON type is an error on the value', () => {
  const text = manifest({
    paginator:
      '        type: DefaultPaginator\n        page_token_option: { type: RequestPath }\n        pagination_strategy:\n          type: PageIncrement\n          page_size: [1]',
  });
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.equal(e[0].at, '[1]');
  assert.equal(e[0].message, 'PageIncrement: `page_size` must be an integer or a string, not a list.');
});

test('an unknown field is a warning on the key with a suggestion', () => {
  const text = manifest().replace('path: /items', 'path: /items\n        use_cahce: true');
  const p = check(text);
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'warning');
  assert.equal(p[0].code, 'unknown-field');
  assert.equal(p[0].at, 'use_cahce');
  assert.match(p[0].message, /Did you mean `use_cache`\?/);
});

test('fields copied from $parameters are not unknown fields', () => {
  const text = manifest().replace('    name: items', '    name: items\n    $parameters:\n      some_setting: 1');
  assert.deepEqual(check(text), []);
});

const customCursor =
  '    incremental_sync:\n      type: CustomIncrementalSync\n      class_name: source_x.components.Cursor\n      cursor_field: updated_at';

test('a removed component is a warning for a manifest declaring an older version', () => {
  const p = check(manifest({ version: '5.16.0', extra: customCursor })).filter((x) => x.code === 'removed-component');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'warning');
  assert.match(p[0].message, /removed in CDK 7\.0\.0.*older version 5\.16\.0/);
  assert.equal(p[0].at, 'CustomIncrementalSync');
});

test('a removed component says that the reference refuses the whole manifest, in its words (harness: source-braze, source-freshdesk, source-gong, source-posthog, source-recharge)', () => {
  const [w] = check(manifest({ version: '5.16.0', extra: customCursor })).filter((x) => x.code === 'removed-component');
  assert.equal(w.severity, 'warning');
  assert.match(
    w.message,
    /refuses the whole manifest, every stream included: "Validation against json schema defined in declarative_component_schema\.yaml schema failed" \('CustomIncrementalSync' is not one of \['DatetimeBasedCursor'\], \['IncrementingCountCursor'\] in DeclarativeStream\.incremental_sync\)/,
  );
});

test('a removed component is an error for a manifest declaring a newer version', () => {
  const e = errors(manifest({ version: '7.1.0', extra: customCursor }));
  assert.equal(e.length, 1);
  assert.equal(e[0].code, 'removed-component');
});

test('an error inside a referenced definition is reported once, where written, with the references as related info', () => {
  const text = [
    'version: 6.0.0',
    'type: DeclarativeSource',
    'check: { stream_names: [a] }',
    'definitions:',
    '  auth:',
    '    type: BearerAuthenticator',
    '    api_tokn: x',
    '  req:',
    '    type: HttpRequester',
    '    url_base: https://x',
    '    authenticator:',
    '      $ref: "#/definitions/auth"',
    'streams:',
    '  - name: a',
    '    retriever:',
    '      requester: "#/definitions/req"',
    '      record_selector: { extractor: { field_path: [] } }',
    '  - name: b',
    '    retriever:',
    '      requester: "#/definitions/req"',
    '      record_selector: { extractor: { field_path: [] } }',
    '',
  ].join('\n');
  const e = errors(text);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.equal(e[0].message, 'BearerAuthenticator: missing required field `api_token`.');
  // The component is written under `definitions.auth`; the chain of references is related info.
  assert.equal(e[0].at, 'auth');
  assert.deepEqual(
    e[0].related!.map((r) => text.slice(r.span.start, r.span.end)),
    ['"#/definitions/auth"', '"#/definitions/req"'],
  );
  const w = check(text).filter((p) => p.code === 'unknown-field');
  assert.equal(w.length, 1);
  assert.equal(w[0].at, 'api_tokn');
});

test('untyped mappings in slots with a default type are validated as that type', () => {
  const text = manifest().replace('          type: DpathExtractor\n          field_path: [data]', '          field_pth: [data]');
  const e = errors(text);
  assert.equal(e.length, 1);
  assert.equal(e[0].message, 'DpathExtractor: missing required field `field_path`.');
});

test('odd documents give one clear error and never throw', () => {
  assert.match(errors('')[0].message, /empty/);
  assert.match(errors('- a\n- b\n')[0].message, /must be a mapping/);
  const top = errors('version: 6.0.0\ntype: DeclarativeSource\nstreams: []\n');
  assert.deepEqual(
    top.map((p) => [p.message, p.at]),
    [['DeclarativeSource: missing required field `check`.', 'type']],
  );
  const unknown = check('version: 6.0.0\ntype: DeclarativeSource\ncheck: { stream_names: [] }\nstreems: []\n');
  assert.deepEqual(
    unknown.map((p) => [p.code, p.at]),
    [['unknown-field', 'streems']],
  );
  assert.match(unknown[0].message, /Did you mean `streams`\?/);
});

test('thousands of stray keys: the first 200 are marked one by one, the rest counted in one warning on the component', () => {
  const stray = Array.from({ length: 5000 }, (_, i) => `stray_${i}: ${i}`).join('\n');
  const p = check(`version: 6.0.0\ntype: DeclarativeSource\ncheck: { stream_names: [] }\nstreams: []\n${stray}\n`);
  const named = p.filter((x) => x.code === 'unknown-field' && /^Unknown field/.test(x.message));
  assert.equal(named.length, 200);
  assert.deepEqual([named[0].at, named[199].at], ['stray_0', 'stray_199']);
  const summary = p.filter((x) => x.code === 'unknown-field' && !/^Unknown field/.test(x.message));
  assert.equal(summary.length, 1);
  assert.equal(summary[0].message, 'DeclarativeSource has 5,000 unknown fields; the first 200 are marked, the CDK ignores them all.');
});

test('deep nesting and truncated input give problems, never an exception', () => {
  const deep = 'version: 6.0.0\ndefinitions:\n' + Array.from({ length: 700 }, (_, i) => ' '.repeat(2 + i) + 'a:').join('\n') + ' 1\n';
  const p = check(deep);
  assert.ok(p.some((x) => x.code === 'nesting-too-deep'));
  const text = fixture('complete.yaml');
  for (const cut of [10, 200, 777, 1500, 2600]) assert.doesNotThrow(() => check(text.slice(0, cut)));
});

test('stream_state in a template is an error for CDK 7 manifests, a warning for older ones', () => {
  const withState = (version: string) => manifest({ version }).replace('path: /items', 'path: "/items/{{ stream_state.get(\'x\') }}"');
  const old = check(withState('4.3.0')).filter((p) => p.code === 'template-stream-state');
  assert.equal(old.length, 1);
  assert.equal(old[0].severity, 'warning');
  assert.match(old[0].message, /older CDK version 4\.3\.0/);
  const current = check(withState('7.2.0')).filter((p) => p.code === 'template-stream-state');
  assert.equal(current.length, 1);
  assert.equal(current[0].severity, 'error');
});
