// A recorded read shown in the editor must look like any other read: with `readMasking: 'testRead'` the
// StreamRead is masked exactly as testRead masks it (spec secrets and obtained tokens), while the cassette
// also masks config values whose key names a credential. By default (`read --record`) both are masked alike.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { recordRead } from '../../../server/src/runtime/cassette/cassetteRead';
import { formatCassette } from '../../../server/src/runtime/cassette/cassette';
import { testRead } from '../../../server/src/runtime/testRead/testRead';

let api: DemoApi;
before(async () => {
  api = await startDemoApi({ now: () => new Date('2024-01-03T12:00:00Z') });
});
after(async () => {
  await api.close();
});

// `auth_mode` names a credential by its key but is not marked airbyte_secret; `api_key` is.
const manifest = {
  version: '6.0.0',
  type: 'DeclarativeSource',
  spec: { type: 'Spec', connection_specification: { type: 'object', properties: { api_key: { type: 'string', airbyte_secret: true } } } },
  streams: [
    {
      type: 'DeclarativeStream',
      name: 'items',
      primary_key: ['id'],
      retriever: {
        type: 'SimpleRetriever',
        requester: {
          type: 'HttpRequester',
          url: "{{ config['url_base'] }}/offset/items",
          http_method: 'GET',
          request_parameters: { mode: "{{ config['auth_mode'] }}", key: "{{ config['api_key'] }}", limit: '5' },
        },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
    },
  ],
};
const config = () => ({ url_base: api.url, auth_mode: 'visible-mode', api_key: 'hidden-api-key' });
const env = { now: () => new Date('2024-01-03T12:00:00Z') };

/** The HTTP server sets its own `Date` header from the wall clock: two reads may straddle a second. */
function withoutDateHeaders<T>(read: T): T {
  const copy = JSON.parse(JSON.stringify(read));
  for (const slice of copy.slices ?? []) {
    for (const page of slice.pages ?? []) {
      const headers = page.response?.headers;
      if (headers) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'date') delete headers[name];
    }
  }
  return copy;
}

test("readMasking 'testRead': the StreamRead equals a plain testRead's; the cassette masks more", async () => {
  const plain = await testRead(manifest, config(), 'items', {}, env);
  const { result, cassette } = await recordRead(manifest, config(), 'items', {}, env, { readMasking: 'testRead' });
  assert.deepEqual(withoutDateHeaders(result), withoutDateHeaders(plain));
  const url = result.slices[0].pages[0].request?.url ?? '';
  assert.match(url, /mode=visible-mode/);
  assert.match(url, /key=\*\*\*\*/);
  const text = formatCassette(cassette);
  assert.ok(!text.includes('visible-mode') && !text.includes('hidden-api-key'));
  assert.match(cassette.exchanges[0].request.url, /mode=\*\*\*\*&key=\*\*\*\*/);
});

test('by default (read --record) the StreamRead is masked like the cassette', async () => {
  const { result } = await recordRead(manifest, config(), 'items', {}, env);
  assert.match(result.slices[0].pages[0].request?.url ?? '', /mode=\*\*\*\*/);
});
