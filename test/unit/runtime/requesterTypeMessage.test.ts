// A requester whose `type` is a mapping (what YAML with a syntax error can leave behind) is described in
// the read's error, never printed as "[object Object]" (issue 19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime/testRead/testRead';

const manifest = (requester: unknown) => ({
  version: '6.0.0',
  type: 'DeclarativeSource',
  check: { type: 'CheckStream', stream_names: ['items'] },
  streams: [
    {
      type: 'DeclarativeStream',
      name: 'items',
      retriever: {
        type: 'SimpleRetriever',
        requester,
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
      },
    },
  ],
});

test('the requester type of a broken document is described, not printed as [object Object]', async () => {
  await assert.rejects(
    testRead(manifest({ type: { HttpRequester: null }, url: 'http://127.0.0.1:9/' }), {}, 'items'),
    (e: Error) =>
      /^Stream 'items': the retriever's requester must be an HttpRequester \(its type is a mapping, not a component name\)\.$/.test(
        e.message,
      ) && !e.message.includes('[object Object]'),
  );
  await assert.rejects(
    testRead(manifest({ type: 'HttpRequestor', url: 'http://127.0.0.1:9/' }), {}, 'items'),
    /must be an HttpRequester \(got HttpRequestor\)/,
  );
});
