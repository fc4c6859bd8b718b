// The captured-reads store (bounds, eviction of the oldest, masking of the kept config, the optional
// pagination trace) and the text readers of captured completion (access chains, flow lists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CapturedReads, maskedConfig } from '../../../server/src/captured/capturedReads';
import { keysAt, valuesAt } from '../../../server/src/captured/capturedKeys';
import { accessChainBefore, flowFieldBefore, flowListBefore } from '../../../server/src/features/capturedCompletion';
import { paginatorSummary, shortStopReason } from '../../../server/src/features/paginatorLens';
import type { StreamRead } from '../../../server/src/runtime/testRead/streamRead';

/** A StreamRead of `pages` pages of `perPage` records each, bodies of about `bodySize` characters. */
function streamRead(pages: number, perPage = 2, bodySize = 100, trace = false): StreamRead {
  let id = 0;
  return {
    logs: [],
    test_read_limit_reached: false,
    auxiliary_requests: [],
    inferred_schema: null,
    inferred_datetime_formats: {},
    latest_config_update: null,
    slices: [
      {
        slice_descriptor: '{}',
        state: [],
        auxiliary_requests: [],
        pages: Array.from({ length: pages }, (_, p) => {
          const records = Array.from({ length: perPage }, () => ({ id: ++id }));
          const body = JSON.stringify({ data: records, pad: 'x'.repeat(Math.max(0, bodySize - 40)) });
          return {
            records,
            request: { url: `https://api.test/items?page=${p}`, headers: {}, http_method: 'GET', body: null },
            response: { status: 200, body, headers: { 'X-Page': String(p) } },
            ...(trace
              ? {
                  pagination_trace: {
                    token_in: p || null,
                    token_out: p + 1 < pages ? p + 1 : null,
                    record_count: perPage,
                    next_requested: p + 1 < pages,
                    stop_reason: p + 1 < pages ? null : `${perPage} records < page_size 50`,
                  },
                }
              : {}),
          };
        }),
      },
    ],
  };
}

test('a captured read keeps every page with its body, headers as sent, records and slice', () => {
  const store = new CapturedReads();
  const read = store.capture('file:///m.yaml', 'items', streamRead(3));
  assert.equal(read.pages.length, 3);
  assert.deepEqual(read.pages[2].headers, { 'X-Page': '2' });
  assert.deepEqual(read.pages[0].records, [{ id: 1 }, { id: 2 }]);
  assert.deepEqual(read.pages[0].sliceDescriptor, {});
  assert.equal(JSON.parse(read.pages[1].bodyText).data[0].id, 3);
  assert.equal(read.pages[0].trace, null);
  assert.ok(store.has('file:///m.yaml') && !store.has('file:///other.yaml'));
  assert.equal(store.get('file:///m.yaml', 'items'), read);
  assert.equal(paginatorSummary(read).title, '3 pages read');
});

test("the pagination trace of each page is kept; the summary names the last page's stop reason", () => {
  const read = new CapturedReads().capture('file:///m.yaml', 'items', streamRead(3, 2, 100, true));
  assert.deepEqual(read.pages[1].trace, { token_in: 1, token_out: 2, record_count: 2, next_requested: true, stop_reason: null });
  assert.deepEqual(paginatorSummary(read), { title: '3 pages · stopped: 2 records < page_size 50', reason: '2 records < page_size 50' });
  const one = new CapturedReads().capture('file:///m.yaml', 'items', streamRead(1));
  assert.equal(paginatorSummary(one).title, '1 page read');
  // Lens titles stay short: no quoted template, no detail after a colon.
  assert.equal(shortStopReason('stop_condition "{{ response.meta.next_cursor is none }}" evaluated true'), 'stop_condition evaluated true');
  assert.equal(
    shortStopReason("record limit of the test read (100) reached: 20 of the page's 40 records kept"),
    'record limit of the test read (100) reached',
  );
});

test('a read keeps at most maxPagesPerRead pages and maxSizePerRead characters: the latest pages', () => {
  const store = new CapturedReads({ maxPagesPerRead: 4, maxSizePerRead: 1_000_000, maxSizeTotal: 10_000_000 });
  const read = store.capture('file:///m.yaml', 'items', streamRead(10));
  assert.deepEqual(
    read.pages.map((p) => p.page),
    [6, 7, 8, 9],
  );
  assert.equal(read.droppedPages, 6);
  assert.equal(paginatorSummary(read).title, '10 pages read');
  const small = new CapturedReads({ maxPagesPerRead: 100, maxSizePerRead: 1_000, maxSizeTotal: 10_000_000 });
  const cut = small.capture('file:///m.yaml', 'items', streamRead(10, 2, 400));
  assert.ok(cut.size <= 1_000 && cut.pages.length >= 1 && cut.pages.length < 10, `${cut.size} in ${cut.pages.length} pages`);
  // The last page always stays, even alone over the budget.
  const tiny = new CapturedReads({ maxPagesPerRead: 100, maxSizePerRead: 10, maxSizeTotal: 10 });
  assert.deepEqual(
    tiny.capture('file:///m.yaml', 'items', streamRead(3)).pages.map((p) => p.page),
    [2],
  );
});

test('over the total budget the oldest captures are dropped first; a new read of a stream replaces its old one', () => {
  const store = new CapturedReads({ maxPagesPerRead: 100, maxSizePerRead: 100_000, maxSizeTotal: 3_000 });
  const a = store.capture('file:///a.yaml', 's', streamRead(4, 2, 300));
  store.capture('file:///b.yaml', 's', streamRead(4, 2, 300));
  assert.ok(a.size > 1_000);
  store.capture('file:///c.yaml', 's', streamRead(4, 2, 300));
  assert.equal(store.get('file:///a.yaml', 's'), undefined, 'the oldest went first');
  assert.ok(store.get('file:///b.yaml', 's') && store.get('file:///c.yaml', 's'));
  assert.ok(store.size <= 3_000);
  const before = store.size;
  store.capture('file:///c.yaml', 's', streamRead(4, 2, 300));
  assert.equal(store.size, before, 'replaced, not added');
  store.clear('file:///c.yaml');
  assert.equal(store.get('file:///c.yaml', 's'), undefined);
  assert.ok(store.get('file:///b.yaml', 's'));
});

test('the kept config has every airbyte_secret value masked wherever it appears, and no private __ keys', () => {
  const spec = {
    connection_specification: {
      type: 'object',
      properties: {
        api_key: { type: 'string', airbyte_secret: true },
        url: { type: 'string' },
        credentials: { type: 'object', properties: { token: { type: 'string', airbyte_secret: true } } },
      },
    },
  };
  const config = {
    api_key: 'sk_live_abcdef123',
    url: 'https://x.test/?k=sk_live_abcdef123',
    credentials: { token: 'tok-999999' },
    __cache: 'internal',
  };
  const masked = maskedConfig(config, { spec });
  assert.deepEqual(masked, { api_key: '****', url: 'https://x.test/?k=****', credentials: { token: '****' } });
  assert.equal(config.api_key, 'sk_live_abcdef123', "the caller's config is not touched");
  const store = new CapturedReads();
  const read = store.capture('file:///m.yaml', 'items', streamRead(1), { value: config, manifest: { spec } });
  assert.ok(!JSON.stringify(read).includes('sk_live_abcdef123') && !JSON.stringify(read).includes('tok-999999'));
  assert.equal(store.capture('file:///m.yaml', 'items', streamRead(1)).config, null);
  // A secret too short for the text masker is still masked where the spec declares it.
  assert.deepEqual(maskedConfig({ api_key: 'ab', url: 'x' }, { spec }), { api_key: '****', url: 'x' });
});

test('the kept config masks what an authenticator or a requester uses as a credential, marked airbyte_secret or not', () => {
  const manifest = {
    spec: { connection_specification: { type: 'object', properties: { access_key: { type: 'string' }, account: { type: 'string' } } } },
    streams: [
      {
        retriever: {
          requester: {
            url: "https://x.test/{{ config['account'] }}",
            request_headers: { 'X-Partner-Key': "{{ config.get('partner') }}", 'X-Account': "{{ config['account'] }}" },
            authenticator: { type: 'BearerAuthenticator', api_token: "{{ config['access_key'] }}" },
          },
        },
      },
    ],
  };
  const config = { access_key: 'ak', account: 'acct-1', partner: 'pk-778899', note: 'see pk-778899' };
  // Short or long, the credential's own property is ****, and its value is masked elsewhere too.
  assert.deepEqual(maskedConfig(config, manifest), { access_key: '****', account: 'acct-1', partner: '****', note: 'see ****' });
});

test('access chains before the cursor: attribute, subscript, get() and index steps', () => {
  assert.deepEqual(accessChainBefore(' response.'), { root: 'response', path: [], quoted: false });
  assert.deepEqual(accessChainBefore(' response.data[0].'), { root: 'response', path: ['data', 0], quoted: false });
  assert.deepEqual(accessChainBefore(" response['meta'][\"next\"].get('x', {}).pa"), {
    root: 'response',
    path: ['meta', 'next', 'x'],
    quoted: false,
  });
  assert.deepEqual(accessChainBefore(" headers['"), { root: 'headers', path: [], quoted: true });
  assert.deepEqual(accessChainBefore(' last_records[-1].'), { root: 'last_records', path: [-1], quoted: false });
  assert.deepEqual(accessChainBefore(" stream_partition.get('"), { root: 'stream_partition', path: [], quoted: true });
  assert.equal(accessChainBefore(' my_response.'), null);
  assert.equal(accessChainBefore(' config.'), null);
  assert.equal(accessChainBefore(' response'), null);
});

test('flow lists typed so far: the items of the innermost open list and the partial one', () => {
  assert.deepEqual(flowListBefore('[data, "*", it'), { items: ['data', '*'], partial: 'it', partialLength: 2, open: true });
  assert.deepEqual(flowListBefore('[[a], [b, '), { items: ['b'], partial: '', partialLength: 0, open: true });
  assert.deepEqual(flowListBefore('upd'), { items: [], partial: 'upd', partialLength: 3, open: false });
});

test('one-level flow mappings typed so far: the last field and its value', () => {
  assert.deepEqual(flowFieldBefore('{type: DpathExtractor, field_path: [data, it'), { field: 'field_path', value: '[data, it' });
  assert.deepEqual(flowFieldBefore('{type: DatetimeBasedCursor, cursor_field: upd'), { field: 'cursor_field', value: 'upd' });
  assert.equal(flowFieldBefore('{type: DpathExtractor, field_path: [a], '), null);
  assert.equal(flowFieldBefore('{a: {b: '), null);
});

test('keys at a path across values: order of the latest, samples that say more than null, * over lists', () => {
  const latest = { data: [{ id: 3, tag: null }], meta: { next: null } };
  const older = { data: [{ id: 1, tag: 'a', extra: true }], meta: { next: 'c2' } };
  assert.deepEqual(
    keysAt([latest, older], []).keys.map((k) => k.key),
    ['data', 'meta'],
  );
  const inner = keysAt([latest, older], ['data', '*'], { wildcard: true }).keys;
  assert.deepEqual(
    inner.map((k) => [k.key, k.type, k.sample]),
    [
      ['id', 'integer', 3],
      ['tag', 'string', 'a'],
      ['extra', 'boolean', true],
    ],
  );
  assert.equal(keysAt([latest], ['data'], { wildcard: true }).arrays, 1);
  assert.deepEqual(valuesAt(latest, ['data', -1, 'id']), [3]);
});
