// A RequestOption with both field_name and field_path (as source-workable's $parameters leave them):
// accepted with field_name winning for manifests declaring a CDK before 6.18.0, where field_path did
// not exist, and still a build error for newer or undeclared versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { createRequestOption } from '../../../server/src/runtime/http/requestOption';
import { parseVersion } from '../../../server/src/runtime/schema/versions';
import type { RuntimeError } from '../../../server/src/runtime/errors';
import { json, startLoopback } from './loopback';

/** The shape of source-workable's jobs stream: $parameters carry field_path into every component. */
function workableStyle(version: string | undefined, base: string): Record<string, unknown> {
  return {
    ...(version ? { version } : {}),
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['jobs'] },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'jobs',
        primary_key: ['id'],
        $parameters: { name: 'jobs', field_path: ['jobs'] },
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url_base: base, path: '/spi/v3/jobs' },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['jobs'] } },
          paginator: {
            type: 'DefaultPaginator',
            page_token_option: { type: 'RequestPath' },
            page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
            pagination_strategy: {
              type: 'CursorPagination',
              page_size: 100,
              cursor_value: '{{ response.paging.next }}',
              stop_condition: "{{ 'next' not in response['paging'] }}",
            },
          },
        },
      },
    ],
  };
}

test('version 4.3.0: field_name wins over a field_path the CDK of that time never read, with one WARN', async () => {
  const api = await startLoopback((req, res, base) => {
    const second = req.url.includes('page=2');
    json(res, { jobs: [{ id: second ? 2 : 1 }], paging: second ? {} : { next: `${base}/spi/v3/jobs?page=2` } });
  });
  try {
    const r = await testRead(workableStyle('4.3.0', api.base), {}, 'jobs');
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/spi/v3/jobs?limit=100', '/spi/v3/jobs?page=2&limit=100'],
    );
    const warnings = r.logs.filter((l) => l.level === 'WARN' && l.message.includes('field_path'));
    assert.equal(warnings.length, 1);
    assert.equal(
      warnings[0].message,
      'RequestOption sets both field_name and field_path: field_path is ignored and field_name is used, because field_path was added in CDK 6.18.0 and this manifest declares version 4.3.0.',
    );
  } finally {
    await api.close();
  }
});

test('version 6.44.0 or no version: both field_name and field_path is a config error at build time', async () => {
  for (const version of ['6.44.0', '6.18.0', undefined]) {
    await assert.rejects(
      testRead(workableStyle(version, 'http://127.0.0.1:9'), {}, 'jobs'),
      (e: RuntimeError) =>
        e.failureType === 'config_error' &&
        /accepts only one of field_name or field_path, not both \(only manifests declaring a CDK version before 6\.18\.0/.test(e.message),
      String(version),
    );
  }
});

test('createRequestOption: the compatibility rule needs the declared version; field_path alone keeps its meaning', () => {
  const both = { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit', field_path: ['jobs'] };
  const warnings: string[] = [];
  const old = createRequestOption(both, {}, {}, { manifestVersion: parseVersion('6.17.9'), warn: (m) => warnings.push(m) });
  assert.equal(old.field_name, 'limit');
  assert.equal(old.field_path, null);
  assert.equal(warnings.length, 1);
  assert.throws(() => createRequestOption(both, {}), /not both/);
  const nested = createRequestOption(
    { type: 'RequestOption', inject_into: 'body_json', field_path: ['a', 'b'] },
    {},
    {},
    { manifestVersion: parseVersion('4.3.0') },
  );
  assert.deepEqual(nested.keyPath(), ['a', 'b']);
});
