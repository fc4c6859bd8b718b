// XmlDecoder in a test read over loopback: record selection, CursorPagination reading the decoded
// dict, an invalid XML page reported as an ERROR, and a session login answered in XML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { testRead } from '../../../server/src/runtime';
import { manifestWith, startLoopback } from './loopback';

function xml(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(body);
}

const page = (ids: number[], next: string | null) =>
  `<?xml version="1.0"?><response><items>${ids.map((id) => `<item kind="k"><id>${id}</id></item>`).join('')}</items>${next ? `<next>${next}</next>` : '<next/>'}</response>`;

test('XML records are selected by path and CursorPagination reads the decoded dict', async () => {
  const api = await startLoopback((req, res) => {
    const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
    if (!cursor) return xml(res, page([1, 2], 'c2'));
    if (cursor === 'c2') return xml(res, page([3], null));
    xml(res, page([], null));
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      decoder: { type: 'XmlDecoder' },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['response', 'items', 'item'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'cursor' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ response['response']['next'] }}",
          stop_condition: "{{ not response['response']['next'] }}",
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?cursor=c2'],
    );
    // A single <item> is one mapping, not a list: DpathExtractor yields it as one record.
    assert.deepEqual(
      r.slices[0].pages.map((p) => p.records),
      [
        [
          { '@kind': 'k', id: '1' },
          { '@kind': 'k', id: '2' },
        ],
        [{ '@kind': 'k', id: '3' }],
      ],
    );
    assert.match(r.slices[0].pages[0].response?.body ?? '', /^<\?xml/);
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
  } finally {
    await api.close();
  }
});

test('an invalid XML page yields no records and a clear ERROR log', async () => {
  const api = await startLoopback((_req, res) => xml(res, '<response><items><item>1</items></response>'));
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      decoder: { type: 'XmlDecoder' },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['response'] } },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(r.slices[0].pages[0].records, []);
    const error = r.logs.find((l) => l.level === 'ERROR')?.message ?? '';
    assert.match(error, /the response of GET http:\/\/127\.0\.0\.1:\d+\/items is not valid XML \(line 1, column \d+: .*closing tag/);
    assert.match(error, /The XmlDecoder yields no records from it/);
  } finally {
    await api.close();
  }
});

test('SessionTokenAuthenticator reads the token from an XML login response', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/login') return xml(res, '<login><session expires="3600">tok-123</session></login>');
    if (req.headers['x-session'] !== 'tok-123') return xml(res, '<error>unauthorized</error>', 401);
    xml(res, '<rows><row><id>1</id></row><row><id>2</id></row></rows>');
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/rows`,
        authenticator: {
          type: 'SessionTokenAuthenticator',
          login_requester: { type: 'HttpRequester', url: `${api.base}/login`, http_method: 'POST' },
          session_token_path: ['login', 'session', '#text'],
          expiration_duration: 'PT1H',
          decoder: { type: 'XmlDecoder' },
          request_authentication: {
            type: 'ApiKey',
            inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Session' },
          },
        },
      },
      decoder: { type: 'XmlDecoder' },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['rows', 'row'] } },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(r.slices[0].pages[0].records, [{ id: '1' }, { id: '2' }]);
    assert.equal(r.auxiliary_requests[0].title, 'Login request');
    // The obtained session token is a secret: masked in the logged request.
    assert.equal(r.slices[0].pages[0].request?.headers?.['X-Session'], '****');
  } finally {
    await api.close();
  }
});
