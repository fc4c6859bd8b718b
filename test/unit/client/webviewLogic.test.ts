// The logic behind the webviews and the results view: three-way merge of testing values, limits,
// failed-component attribution, readable stacks and safe rich-text descriptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedPaths, mergeEdits } from '../../../client/src/configMerge';
import {
  describeSlice,
  failedComponent,
  limitBanner,
  limitsReached,
  paginationTraceView,
  readableStack,
  readProgressText,
  shortToken,
  sliceStateView,
} from '../../../client/src/streamReadView';
import { parseRichText, richTextToPlain, safeHref } from '../../../client/src/webview/richText';

test('a form loaded before a token rotation never writes the used-up token back', () => {
  const base = { url_base: 'http://x', credentials: { client_id: 'c', refresh_token: 'r0' } };
  const stored = { url_base: 'http://x', credentials: { client_id: 'c', refresh_token: 'r1', access_token: 'a1' } };
  // The user changed only the URL in the open form.
  const edited = { url_base: 'http://y', credentials: { client_id: 'c', refresh_token: 'r0' } };
  assert.deepEqual(mergeEdits(base, edited, stored), {
    url_base: 'http://y',
    credentials: { client_id: 'c', refresh_token: 'r1', access_token: 'a1' },
  });
});

test('an edit the user made wins over the stored value; a field the user cleared stays cleared', () => {
  const base = { a: 1, b: 'x', c: [1] };
  const stored = { a: 2, b: 'y', c: [1, 2] };
  const edited = { a: 5, c: [1] };
  assert.deepEqual(mergeEdits(base, edited, stored), { a: 5, c: [1, 2] });
  assert.deepEqual(changedPaths({ a: 1, o: { t: 'r0' } }, { a: 1, o: { t: 'r1' }, n: true }).sort(), ['/n', '/o/t']);
});

test('the banner names the limit reached', () => {
  const page = (n: number) => ({ records: Array.from({ length: n }, (_, i) => ({ i })) });
  const limits = { maxRecords: 100, maxPagesPerSlice: 3, maxSlices: 2 };
  assert.deepEqual(limitsReached([{ pages: [page(10), page(10), page(10)] }], limits), [{ limit: 'pages per slice', value: 3 }]);
  assert.deepEqual(
    limitsReached([{ pages: [page(60)] }, { pages: [page(40)] }], limits).map((h) => h.limit),
    ['records', 'slices'],
  );
  assert.deepEqual(limitsReached([{ pages: [page(1)] }], limits), []);
  assert.match(limitBanner([{ limit: 'records', value: 100 }]), /^Stopped at the record limit \(100 records\)/);
  assert.match(limitBanner([]), /A test-read limit was reached/);
});

test('errors are attributed to the component on the stack, else by what the message says', () => {
  const oauth =
    'RuntimeError: Refresh failed\n    at refresh (/ext/server/src/runtime/auth/oauthTokenRequest.ts:40:11)\n    at read (/ext/server/src/runtime/testRead/testRead.ts:120:5)';
  assert.equal(failedComponent({ message: 'x', stacktrace: oauth }), 'authenticator');
  const paging =
    'RuntimeError: undefined variable\n    at evaluate (/ext/server/src/runtime/interpolation/evaluator.ts:9:1)\n    at next (/ext/server/src/runtime/pagination/cursorPagination.ts:50:3)';
  assert.equal(failedComponent({ message: 'x', stacktrace: paging }), 'paginator');
  const http = 'RuntimeError: Unauthorized\n    at check (/ext/server/src/runtime/http/errorHandler.ts:80:9)';
  assert.equal(
    failedComponent({
      message: "Reading stream 'items' failed: Unauthorized: check the credentials in the config. (HTTP 401)",
      stacktrace: http,
    }),
    'authenticator',
  );
  assert.equal(failedComponent({ message: 'Internal server error (HTTP 500)', stacktrace: http }), 'requester');
  assert.equal(failedComponent({ message: 'something odd', stacktrace: null }), undefined);
});

test('stacks show source-mapped frames only, relative to the sources, never bundle frames', () => {
  const mapped = readableStack(
    'RuntimeError: boom\n    at run (/home/u/ext/server/src/runtime/http/requester.ts:12:7)\n    at async Promise.all (index 0)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at x (/home/u/ext/node_modules/yaml/dist/index.js:1:1)',
  );
  assert.equal(mapped.mapped, true);
  assert.equal(mapped.text, 'RuntimeError: boom\n  at run (server/src/runtime/http/requester.ts:12:7)');
  const minified = readableStack('Error: boom\n    at a (/home/u/ext/out/server.js:1:48211)');
  assert.equal(minified.mapped, false);
  assert.doesNotMatch(minified.text, /out\/server\.js/);
});

test('descriptions: allowed HTML and Markdown become nodes; scripts, handlers and javascript: links do not survive', () => {
  const nodes = parseRichText(
    'See <a href="https://docs.example.com/x?a=1&amp;b=2" onclick="evil()">the docs</a> and <b>bold</b><br>next <script>alert(1)</script><img src=x onerror=alert(2)>done',
  );
  assert.deepEqual(nodes, [
    'See ',
    { tag: 'a', href: 'https://docs.example.com/x?a=1&b=2', children: ['the docs'] },
    ' and ',
    { tag: 'b', children: ['bold'] },
    { tag: 'br', children: [] },
    'next ',
    'done',
  ]);
  assert.deepEqual(parseRichText('<a href="javascript:alert(1)">x</a>'), [{ tag: 'a', children: ['x'] }]);
  assert.deepEqual(parseRichText('Use [the guide](https://g.example.com) with `code` and **care**.'), [
    'Use ',
    { tag: 'a', href: 'https://g.example.com', children: ['the guide'] },
    ' with ',
    { tag: 'code', children: ['code'] },
    ' and ',
    { tag: 'b', children: ['care'] },
    '.',
  ]);
  assert.equal(richTextToPlain(parseRichText('a &lt;b&gt; <span>c</span> <unknown>d</unknown>')), 'a <b> c d');
  // snake_case names and a lone asterisk stay text.
  assert.deepEqual(parseRichText('Set page_size_option or 5 * 3'), ['Set page_size_option or 5 * 3']);
  assert.equal(safeHref('command:workbench.action.quit'), undefined);
  assert.equal(safeHref('data:text/html,<b>x</b>'), undefined);
});

test("the State tab shows each slice descriptor and the stream state of the StreamRead slice's state message", () => {
  const slice = {
    slice_descriptor: { start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-01T23:59:59Z' },
    state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'events' }, stream_state: { created_at: '2024-01-01T22:00:00Z' } } }],
  };
  const view = sliceStateView(slice);
  assert.equal(view.descriptor, JSON.stringify(slice.slice_descriptor, null, 2));
  assert.deepEqual(JSON.parse(view.state!), { created_at: '2024-01-01T22:00:00Z' });
  assert.match(view.message!, /"stream_descriptor"/);
  // The runtime's serialisation (Python field names, `global_`) reads the same.
  const cdkShaped = sliceStateView({
    slice_descriptor: {},
    state: [
      {
        type: 'STREAM',
        stream: { stream_descriptor: { name: 'e', namespace: null }, stream_state: { created_at: 'x' } },
        global_: null,
        data: null,
      },
    ],
  });
  assert.deepEqual(JSON.parse(cdkShaped.state!), { created_at: 'x' });
  const globalState = sliceStateView({ state: [{ type: 'GLOBAL', global_: { shared_state: { c: 1 }, stream_states: [] } }] });
  assert.deepEqual(JSON.parse(globalState.state!), { c: 1 });
  // Partitioned incremental state (per-partition states) is shown as the runtime wrote it.
  const partitioned = sliceStateView({
    slice_descriptor: { parent_id: 1 },
    state: [
      {
        type: 'STREAM',
        stream: {
          stream_descriptor: { name: 'c' },
          stream_state: { states: [{ partition: { parent_id: 1 }, cursor: { updated_at: 'x' } }] },
        },
      },
    ],
  });
  assert.match(partitioned.state!, /"partition"/);
  assert.equal(describeSlice({ parent_id: 1 }), 'parent_id=1');
  // No state, and the unpartitioned "{}" descriptor: both are "none".
  assert.deepEqual(sliceStateView({ slice_descriptor: '{}', state: [] }), { descriptor: null, state: null, message: null });
  assert.equal(readProgressText(3, 75), '3 pages, 75 records so far');
  assert.equal(readProgressText(1, 1), '1 page, 1 record so far');
});

test('the pagination trace line beside a page: tokens in and out, records, and requested or the stop reason', () => {
  assert.deepEqual(paginationTraceView({ token_in: null, token_out: 50, record_count: 50, next_requested: true, stop_reason: null }), {
    tokens: '∅ → 50',
    records: '50 records',
    next: 'next page: requested',
    stopped: false,
    title: 'token in: no token\ntoken out: 50',
  });
  const last = paginationTraceView({
    token_in: 100,
    token_out: null,
    record_count: 1,
    next_requested: false,
    stop_reason: '1 record < page_size 50',
  });
  assert.equal(`${last.tokens} · ${last.records} · ${last.next}`, '100 → ∅ · 1 record · stopped: 1 record < page_size 50');
  assert.equal(last.stopped, true);
  // A whole next URL is cut in the middle for a narrow pane; the tooltip keeps it whole.
  const url = 'http://127.0.0.1:8787/next-url/items?limit=50&offset=150';
  const short = shortToken(url);
  assert.equal(short.text.length, 28);
  assert.ok(short.text.startsWith('http://127.0.') && short.text.endsWith('offset=150') && short.text.includes('…'));
  assert.equal(short.full, url);
  assert.match(
    paginationTraceView({ token_in: url, token_out: null, record_count: 0, next_requested: false, stop_reason: 'x' }).title,
    /offset=150\n/,
  );
});
