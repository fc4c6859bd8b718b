import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, manifest } from '../schema/helpers';

const withCode = (text: string, code: string) => check(text).filter((p) => p.code === code);

const apiKey = (extra: string) =>
  [
    '        type: HttpRequester',
    '        url_base: https://x',
    '        authenticator:',
    '          type: ApiKeyAuthenticator',
    '          api_token: "{{ config[\'key\'] }}"',
    extra,
  ].join('\n');

test('api-key-header-and-inject-into: both set is an error on `header`, pointing at inject_into', () => {
  const text = manifest({
    requester: apiKey(
      '          header: X-Key\n          inject_into:\n            type: RequestOption\n            inject_into: header\n            field_name: X-Key',
    ),
  });
  const p = withCode(text, 'api-key-header-and-inject-into');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'error');
  assert.equal(p[0].at, 'header');
  assert.equal(text.slice(p[0].related![0].span.start, p[0].related![0].span.end), 'inject_into');
});

test('api-key-header-and-inject-into: neither set is an error; exactly one is fine', () => {
  assert.equal(withCode(manifest({ requester: apiKey('') }), 'api-key-header-and-inject-into').length, 1);
  assert.deepEqual(withCode(manifest({ requester: apiKey('          header: X-Key') }), 'api-key-header-and-inject-into'), []);
});

test('colliding-injected-keys: a header set by request_headers and by the authenticator', () => {
  const text = manifest({
    requester:
      apiKey('          inject_into: { type: RequestOption, inject_into: header, field_name: X-Key }') +
      '\n        request_headers:\n          X-Key: other',
  });
  const p = withCode(text, 'colliding-injected-keys');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'warning');
  assert.match(p[0].message, /The header `X-Key` is set by/);
  assert.ok(p[0].related?.length === 1);
});

test('colliding-injected-keys: page size and token with the same name; different parts do not collide', () => {
  const paginator = (sizePart: string) =>
    [
      '        type: DefaultPaginator',
      '        page_token_option: { type: RequestOption, inject_into: request_parameter, field_name: page }',
      `        page_size_option: { type: RequestOption, inject_into: ${sizePart}, field_name: page }`,
      '        pagination_strategy: { type: PageIncrement, page_size: 10 }',
    ].join('\n');
  const same = withCode(manifest({ paginator: paginator('request_parameter') }), 'colliding-injected-keys');
  assert.equal(same.length, 1);
  assert.match(same[0].message, /query parameter `page`/);
  assert.equal(same[0].at, 'page');
  assert.deepEqual(withCode(manifest({ paginator: paginator('header') }), 'colliding-injected-keys'), []);
});

test('colliding-injected-keys says what the declared version did (divergence 10: source-postmarkapp declares 5.10.2)', () => {
  const paginator = [
    '        type: DefaultPaginator',
    '        page_token_option: { type: RequestOption, inject_into: request_parameter, field_name: offset }',
    '        page_size_option: { type: RequestOption, inject_into: request_parameter, field_name: offset }',
    '        pagination_strategy: { type: OffsetIncrement, page_size: 500 }',
  ].join('\n');
  const [old] = withCode(manifest({ version: '5.10.2', paginator }), 'colliding-injected-keys');
  // 5.10.2 raised nothing: the page size replaced the token in one mapping.
  assert.match(
    old.message,
    /With the declared CDK 5\.10\.2 the paginator wrote both into one mapping, so the paginator's `page_size_option` silently replaced the paginator's `page_token_option`/,
  );
  assert.doesNotMatch(old.message, /fails the request/);
  assert.match(old.message, /from 6\.33\.7 on the CDK refuses to build this paginator/);
  const [current] = withCode(manifest({ version: '6.44.0', paginator }), 'colliding-injected-keys');
  assert.match(
    current.message,
    /the CDK refuses to build this paginator: "Request body collision, duplicate keys detected at key path: offset\./,
  );
  assert.doesNotMatch(current.message, /fails the request|declared CDK/);
  // Between two components the collision is a request-time error in every version, in that version's words.
  const header =
    apiKey('          inject_into: { type: RequestOption, inject_into: header, field_name: X-Key }') +
    '\n        request_headers:\n          X-Key: other';
  assert.match(
    withCode(manifest({ version: '5.10.2', requester: header }), 'colliding-injected-keys')[0].message,
    /the declared CDK 5\.10\.2 fails the request \("Duplicate keys found: …"\)/,
  );
  assert.match(
    withCode(manifest({ version: '6.44.0', requester: header }), 'colliding-injected-keys')[0].message,
    /the CDK fails the request: "Request body collision/,
  );
});

test('page-token-option-missing: warns when the token is never sent', () => {
  const paginator = '        type: DefaultPaginator\n        pagination_strategy: { type: OffsetIncrement, page_size: 10 }';
  const p = withCode(manifest({ paginator }), 'page-token-option-missing');
  assert.equal(p.length, 1);
  assert.equal(p[0].at, 'paginator');
  assert.match(p[0].message, /OffsetIncrement has no `page_token_option`/);
});

test('page-token-option-missing: silent when the requester reads next_page_token itself', () => {
  const paginator = '        type: DefaultPaginator\n        pagination_strategy: { type: OffsetIncrement, page_size: 10 }';
  const requester =
    '        type: HttpRequester\n        url_base: https://x\n        request_parameters:\n          offset: "{{ next_page_token.next_page_token }}"';
  assert.deepEqual(withCode(manifest({ paginator, requester }), 'page-token-option-missing'), []);
});

test('request-path-field-name: a field name on RequestPath is flagged', () => {
  const paginator = [
    '        type: DefaultPaginator',
    '        page_token_option:',
    '          type: RequestPath',
    '          field_name: next',
    '        pagination_strategy: { type: CursorPagination, cursor_value: "{{ response.next }}" }',
  ].join('\n');
  const p = withCode(manifest({ paginator }), 'request-path-field-name');
  assert.equal(p.length, 1);
  assert.equal(p[0].at, 'field_name');
  assert.match(p[0].message, /use `type: RequestOption`/);
});

test('oauth-required-fields: missing endpoint, credentials and refresh token are errors', () => {
  const oauth = (fields: string) =>
    manifest({
      requester: `        type: HttpRequester\n        url_base: https://x\n        authenticator:\n          type: OAuthAuthenticator\n${fields}`,
    });
  const full =
    '          client_id: a\n          client_secret: b\n          refresh_token: c\n          token_refresh_endpoint: https://x/token';
  assert.deepEqual(withCode(oauth(full), 'oauth-required-fields'), []);
  const noEndpoint = withCode(oauth(full.replace(/\n.*token_refresh_endpoint.*/, '')), 'oauth-required-fields');
  assert.equal(noEndpoint.length, 1);
  assert.match(noEndpoint[0].message, /^OAuthAuthenticator: missing `token_refresh_endpoint`/);
  assert.equal(noEndpoint[0].at, 'authenticator');
  const clientCredentials = full.replace(/\n.*refresh_token: c/, '') + '\n          grant_type: client_credentials';
  assert.deepEqual(withCode(oauth(clientCredentials), 'oauth-required-fields'), []);
  assert.match(withCode(oauth(full.replace(/\n.*refresh_token: c/, '')), 'oauth-required-fields')[0].message, /missing `refresh_token`/);
});

test('custom-component: class_name components get an information diagnostic on the class name', () => {
  const requester =
    '        type: HttpRequester\n        url_base: https://x\n        authenticator:\n          class_name: source_x.components.Auth';
  const p = withCode(manifest({ requester }), 'custom-component');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'information');
  assert.equal(p[0].at, 'source_x.components.Auth');
  assert.match(p[0].message, /CustomAuthenticator .* runs only in the Python CDK/);
});

test('duplicate-key: a duplicate mapping key is a warning, the later value wins', () => {
  const text = manifest().replace('    name: items', '    name: first\n    name: items');
  const p = withCode(text, 'duplicate-key');
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'warning');
  assert.deepEqual(
    check(text).filter((x) => x.severity === 'error'),
    [],
  );
});

const pageOption = (lines: string) =>
  manifest({
    paginator: [
      '        type: DefaultPaginator',
      '        page_token_option:',
      '          type: RequestOption',
      lines,
      '        pagination_strategy:',
      '          type: PageIncrement',
      '          page_size: 10',
    ].join('\n'),
  });

test('request-option-key: both field_name and field_path is an error, a warning for manifests older than field_path', () => {
  const both = '          inject_into: request_parameter\n          field_name: page\n          field_path: [items]';
  const now = withCode(pageOption(both), 'request-option-key');
  assert.equal(now.length, 1);
  assert.equal(now[0].severity, 'error');
  assert.equal(now[0].at, 'field_path');
  const old = withCode(pageOption(both).replace('version: 6.44.0', 'version: 4.3.0'), 'request-option-key');
  assert.equal(old.length, 1);
  assert.equal(old[0].severity, 'warning');
  assert.match(old[0].message, /declares \(4\.3\.0\) predates `field_path` \(added in 6\.18\.0\)/);
});

test('request-option-key: neither key is an error; field_path outside body_json is an error; one key is fine', () => {
  assert.equal(withCode(pageOption('          inject_into: request_parameter'), 'request-option-key')[0].severity, 'error');
  const nested = withCode(pageOption('          inject_into: request_parameter\n          field_path: [a, b]'), 'request-option-key');
  assert.match(nested[0].message, /works only with `inject_into: body_json`/);
  assert.deepEqual(withCode(pageOption('          inject_into: body_json\n          field_path: [a, b]'), 'request-option-key'), []);
  assert.deepEqual(withCode(pageOption('          inject_into: request_parameter\n          field_name: page'), 'request-option-key'), []);
});

const cursor = [
  '    incremental_sync:',
  '      type: DatetimeBasedCursor',
  '      cursor_field: updated_at',
  '      datetime_format: "%Y-%m-%d"',
  '      start_datetime: "{{ config[\'start\'] }}"',
].join('\n');

test('pagination-reset-combination: limits with a record filter, and SPLIT_USING_CURSOR without a DatetimeBasedCursor', () => {
  const reset = (action: string, limits: boolean) =>
    [
      '      pagination_reset:',
      '        type: PaginationReset',
      `        action: ${action}`,
      ...(limits ? ['        limits:', '          type: PaginationResetLimits', '          number_of_records: 100'] : []),
    ].join('\n');
  const withFilter = manifest({ extra: reset('RESET', true) }).replace(
    '          field_path: [data]',
    '          field_path: [data]\n        record_filter:\n          type: RecordFilter\n          condition: "{{ record.ok }}"',
  );
  const p = withCode(withFilter, 'pagination-reset-combination');
  assert.equal(p.length, 1);
  assert.equal(p[0].at, 'limits');
  assert.equal(p[0].related?.length, 1);
  const split = withCode(manifest({ extra: reset('SPLIT_USING_CURSOR', true) }), 'pagination-reset-combination');
  assert.equal(split.length, 1);
  assert.equal(split[0].at, 'SPLIT_USING_CURSOR');
  assert.deepEqual(withCode(manifest({ extra: `${reset('SPLIT_USING_CURSOR', true)}\n${cursor}` }), 'pagination-reset-combination'), []);
});

test('async-status-mapping: a status listed twice is an error on the second listing', () => {
  const text = (mapping: string) =>
    [
      'version: 6.0.0',
      'type: DeclarativeSource',
      'check: { type: CheckStream, stream_names: [report] }',
      'streams:',
      '  - type: DeclarativeStream',
      '    name: report',
      '    retriever:',
      '      type: AsyncRetriever',
      '      status_mapping:',
      mapping,
      '      status_extractor: { type: DpathExtractor, field_path: [status] }',
      '      download_target_extractor: { type: DpathExtractor, field_path: [url] }',
      '      record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [] } }',
      '      creation_requester: { type: HttpRequester, url: "https://x/jobs", http_method: POST }',
      '      polling_requester: { type: HttpRequester, url: "https://x/jobs/{{ creation_response[\'id\'] }}" }',
      '      download_requester: { type: HttpRequester, url: "{{ download_target }}" }',
    ].join('\n');
  const fine =
    '        type: AsyncJobStatusMap\n        running: [pending]\n        completed: [done]\n        failed: [error]\n        timeout: []';
  assert.deepEqual(withCode(text(fine), 'async-status-mapping'), []);
  const twice = withCode(text(fine.replace('failed: [error]', 'failed: [error, done]')), 'async-status-mapping');
  assert.equal(twice.length, 1);
  assert.equal(twice[0].severity, 'error');
  assert.equal(twice[0].at, 'done');
  assert.match(twice[0].message, /^Status 'done' is listed in both `completed` and `failed`/);
  const sameList = withCode(text(fine.replace('running: [pending]', 'running: [pending, pending]')), 'async-status-mapping');
  assert.match(sameList[0].message, /listed twice in `running`/);
});
