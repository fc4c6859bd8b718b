// A synthesized API for one manifest: answers every data, token and login request of its streams on
// 127.0.0.1 with bodies shaped by what the manifest reads (records at the extractor's path, pagination
// tokens and links where the paginator looks, the fields that cursors, partition routers and templates
// use). It need not be realistic, only deterministic and rich enough that a test read reaches page 2 and
// slice 2, so that the reference and our runtime can be compared on the same answers.
import { createServer } from 'node:http';
import { KEEP_ALIVE_MS } from './scriptedApi.mjs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const runtime = createRequire(import.meta.url)('../../out/runtime.js');

/** Response fields that hold an offset (the first record's index) rather than a token. */
const OFFSET_FIELD = /start_?at|^offset$|\.offset\b|\['offset'\]|startAt/i;

/** Pages a paginated route serves before it stops offering a next page. */
export const LAST_PAGE = 3;
/** The clock both sides run on. */
export const FROZEN_NOW = '2024-03-15T12:00:00Z';
const RECORD_DATES = ['2024-03-11T08:30:00Z', '2024-03-12T09:45:00Z', '2024-03-13T10:15:00Z'];

/** The rewritten origin prefix every absolute URL of the manifest is sent to. */
export function hostPrefix(port) {
  return `http://127.0.0.1:${port}/h/`;
}

/** Rewrites every absolute http(s) URL in the manifest's strings to the synthesized API. */
export function rewriteUrls(value, port) {
  if (typeof value === 'string') return value.replace(/https?:\/\/(?!127\.0\.0\.1)/g, hostPrefix(port));
  if (Array.isArray(value)) return value.map((v) => rewriteUrls(v, port));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteUrls(v, port)]));
  return value;
}

/** The largest page the synthetic API serves in full (a bigger page would cost both runtimes time for nothing). */
export const MAX_FULL_PAGE = 1000;

/**
 * Lowers a literal `page_size` above MAX_FULL_PAGE to it in every PageIncrement and OffsetIncrement
 * strategy (both runtimes then read the same manifest). These strategies go on only after a full
 * page, so a stream with `page_size: 20000` could never reach its second page against the
 * synthetic API and was compared on one page only. CursorPagination is left alone: its stop
 * condition may compare against the same number written elsewhere.
 */
export function capPageSizes(value) {
  if (Array.isArray(value)) return value.map((v) => capPageSizes(v));
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capPageSizes(v)]));
  if (
    (out.type === 'PageIncrement' || out.type === 'OffsetIncrement') &&
    typeof out.page_size === 'number' &&
    out.page_size > MAX_FULL_PAGE
  )
    out.page_size = MAX_FULL_PAGE;
  return out;
}

/** Finds every component of `type` below `node` (resolved manifest JSON). */
function findAll(node, pred, out = []) {
  if (Array.isArray(node)) for (const v of node) findAll(v, pred, out);
  else if (node && typeof node === 'object') {
    if (pred(node)) out.push(node);
    for (const v of Object.values(node)) findAll(v, pred, out);
  }
  return out;
}

export function evalString(template, config, parameters) {
  if (typeof template !== 'string') return template;
  if (!template.includes('{{') && !template.includes('{%')) return template;
  try {
    return runtime.interpolate(template, { config, parameters: parameters ?? {} }, 'string', { now: () => new Date(FROZEN_NOW) });
  } catch {
    return null;
  }
}

/** The template expressions a component reads from `response`, `headers`, `last_record` and `record`. */
function referencedPaths(node, root) {
  const out = [];
  const text = JSON.stringify(node ?? null);
  // `.get(…)` is tried before a plain `.name`, or `response.get('next')` would stop at `.get`.
  const re = new RegExp(
    `\\b${root}((?:\\s*\\.get\\(\\s*\\\\?['"][^'"\\\\]*\\\\?['"][^)]*\\)|\\s*\\.\\s*[A-Za-z_][A-Za-z0-9_]*|\\s*\\[\\s*(?:\\\\?['"][^'"\\\\]*\\\\?['"]|\\d+)\\s*\\])+)`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    const segs = [];
    for (const s of m[1].matchAll(
      /\.\s*get\(\s*\\?['"]([^'"\\]*)\\?['"]|\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*\\?['"]([^'"\\]*)\\?['"]\s*\]|\[\s*(\d+)\s*\]/g,
    )) {
      const seg = s[1] ?? s[2] ?? s[3] ?? s[4];
      if (['get', 'keys', 'values', 'items', 'lower', 'upper', 'split', 'strip', 'replace'].includes(seg) && s[2]) break;
      segs.push(seg);
    }
    if (segs.length) out.push(segs);
  }
  return out;
}

const isDateName = (k) => /(^|_)(date|time|at|on|updated|created|modified|timestamp|since|until|starts|ends)($|_)|At$|Date$|Time$/i.test(k);

/** What one stream's route serves, derived from the resolved stream. */
function describeStream(stream, allStreams, config) {
  const retriever = stream.retriever ?? {};
  const requester = retriever.requester ?? {};
  const selector = retriever.record_selector ?? {};
  const extractor = selector.extractor ?? {};
  const params = stream.$parameters ?? {};
  const fieldPath = Array.isArray(extractor.field_path)
    ? extractor.field_path.map((p) => evalString(p, config, extractor.$parameters ?? params))
    : [];
  const paginator = retriever.paginator && retriever.paginator.type === 'DefaultPaginator' ? retriever.paginator : null;
  const strategy = paginator?.pagination_strategy ?? null;
  let pageSize = null;
  if (strategy && strategy.page_size !== undefined) {
    const v = evalString(strategy.page_size, config, strategy.$parameters ?? params);
    const n = Number(v);
    if (Number.isFinite(n) && n > 0) pageSize = Math.floor(n);
  }
  const decoder = retriever.decoder?.type ?? requester.decoder?.type ?? 'JsonDecoder';
  // Fields the records must carry: keys, cursors, fields children read from them, fields templates read.
  const fields = new Set(['id']);
  const pk = stream.primary_key;
  for (const k of Array.isArray(pk) ? pk.flat() : pk ? [pk] : []) if (typeof k === 'string') fields.add(k);
  const cursor = stream.incremental_sync;
  const cursorFields = [];
  if (cursor?.cursor_field) {
    const cf = evalString(cursor.cursor_field, config, cursor.$parameters ?? params);
    if (typeof cf === 'string' && cf) cursorFields.push(cf);
  }
  const nested = [];
  for (const other of allStreams) {
    for (const cfg of findAll(other.retriever?.partition_router ?? null, (n) => n.type === 'ParentStreamConfig')) {
      if (cfg.stream?.name !== stream.name && cfg.stream !== stream) continue;
      const key = evalString(cfg.parent_key, config, cfg.$parameters ?? {});
      if (typeof key === 'string') nested.push(key.split('/'));
      // Fields the child copies from each parent record (`stream_slice.extra_fields`).
      for (const path of Array.isArray(cfg.extra_fields) ? cfg.extra_fields : [])
        if (Array.isArray(path) && path.every((p) => typeof p === 'string')) nested.push(path);
    }
  }
  for (const p of referencedPaths([selector.record_filter, stream.transformations, paginator, cursor], 'last_record')) nested.push(p);
  for (const p of referencedPaths([selector.record_filter, stream.transformations], 'record')) nested.push(p);
  return {
    name: stream.name,
    fieldPath,
    filterValues: filterLiterals(selector.record_filter?.condition),
    inputFormats: inputDateFormats(stream.transformations),
    paginator,
    strategy,
    pageSize,
    decoder,
    fields: [...fields],
    cursorFields,
    cursorFormat: cursor?.cursor_datetime_formats?.[0] ?? cursor?.datetime_format ?? null,
    nested,
    // Only the paginator's: an error handler's paths are where an API reports errors (`'message' in
    // response` → FAIL), so a value there turns every page into an error.
    responsePaths: referencedPaths([paginator?.pagination_strategy], 'response'),
    headerPaths: referencedPaths([paginator?.pagination_strategy], 'headers'),
    tokenOption: paginator?.page_token_option ?? null,
    sizeOption: paginator?.page_size_option ?? null,
  };
}

/** A regular expression for the request path of a requester's url (templates become wildcards). */
function routeRegex(requester, port, config = {}) {
  // Templates that read only the config or the parameters (`{{ config.base_url }}/oauth/token`) are
  // the same on every request: evaluated, they give the route a literal prefix.
  const dynamic = (t) => /stream_(slice|partition|interval|state)|next_page_token|response|record/.test(t);
  const fixed = (t) => {
    if (typeof t !== 'string') return t;
    // A whole template with statements (`{%- set URLS = {…} -%}{{ URLS[config.region] }}`) at once.
    if (t.includes('{%') && !dynamic(t)) {
      const v = evalString(t, config, requester.$parameters ?? {});
      if (typeof v === 'string' && v) return v.trim();
    }
    return t.replace(/\{\{[\s\S]*?\}\}/g, (part) => {
      if (dynamic(part)) return part;
      const v = evalString(part, config, requester.$parameters ?? {});
      return typeof v === 'string' && v ? v : part;
    });
  };
  let url = fixed(requester.url);
  if (typeof url !== 'string') {
    const base = typeof requester.url_base === 'string' ? fixed(requester.url_base) : '';
    const path = typeof requester.path === 'string' ? fixed(requester.path) : '';
    url = path ? `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}` : base;
  }
  url = url.replace(`http://127.0.0.1:${port}`, '');
  if (!url.startsWith('/')) return { re: /^\/.*$/, literal: 0 };
  // A trailing slash may not reach the API: `url_base: …/graphql` with `path: /` is sent to `…/graphql`
  // (source-linear); the pattern below accepts the path with or without one.
  if (url.length > 1) url = url.replace(/\/+$/, '');
  const parts = url.split(/(\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\})/);
  let literal = 0;
  const src = parts
    .map((p, i) => {
      if (i % 2 === 1) return '.*?';
      literal += p.length;
      return p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  // Runs of slashes may reach the API collapsed (urljoin drops empty segments).
  return { re: new RegExp(`^${src.replace(/\\\?.*$/, '').replace(/\/+/g, '/+')}/?$`), literal };
}

/** Fixed strings of a requester's body and parameters (no templates), as they would appear on the wire. */
function requestHints(requester) {
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') {
      for (const part of v.split(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/)) {
        const t = part.trim();
        if (t.length >= 6) out.push(t, JSON.stringify(t).slice(1, -1));
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk([requester.request_body_json, requester.request_body_data, requester.request_body?.value, requester.request_parameters]);
  return [...new Set(out)];
}

export function formatDate(iso, format) {
  if (!format) return iso;
  if (format === '%s') return String(Math.floor(Date.parse(iso) / 1000));
  if (format === '%ms') return String(Date.parse(iso));
  try {
    const v = runtime.interpolate(`{{ format_datetime('${iso}', '${format.replace(/'/g, "\\'")}') }}`, {}, 'string');
    return typeof v === 'string' && v ? v : iso;
  } catch {
    return iso;
  }
}

function setPath(obj, segs, value) {
  let node = obj;
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    if (s === '*') return; // wildcard paths are handled by the caller
    if (!node[s] || typeof node[s] !== 'object') node[s] = {};
    node = node[s];
  }
  const last = segs[segs.length - 1];
  if (last !== '*' && node[last] === undefined) node[last] = value;
}

function makeRecord(d, page, i, routeIndex, kept = d.filterValues) {
  const id = routeIndex * 100000 + page * 1000 + i;
  const rec = {};
  const date = RECORD_DATES[(page - 1) % RECORD_DATES.length];
  for (const f of d.fields) rec[f] = f === 'id' ? id : isDateName(f) ? formatDate(date, null) : `${f}-${id}`;
  for (const f of d.cursorFields) rec[f] = formatDate(date, d.cursorFormat);
  // Nested fields named like dates or time zones get values a template can parse.
  for (const segs of d.nested) {
    const last = segs[segs.length - 1] ?? '';
    setPath(rec, segs, /^(time_?zone|tz)$/i.test(last) ? 'UTC' : isDateName(last) ? date : `${segs.join('.')}-${id}`);
  }
  for (const f of Object.keys(rec)) if (/^(time_?zone|tz)$/i.test(f)) rec[f] = 'UTC';
  // Fields a transformation parses with an explicit input format (`format_datetime(record['createdAt'],
  // '%Y-…', '%a, %d %b %Y %H:%M:%S %z')`, shopwired) are written in that format.
  for (const [field, format] of d.inputFormats) rec[field] = formatDate(date, format);
  // Filter literals win over made-up values; where streams keep different values of one field (box's
  // files keep type "file", its folders "folder") the records take them in turn.
  const byField = new Map();
  for (const [segs, v] of kept) {
    const key = segs.join('.');
    if (!byField.has(key)) byField.set(key, { segs, values: [] });
    if (!byField.get(key).values.includes(v)) byField.get(key).values.push(v);
  }
  for (const { segs, values } of byField.values()) {
    setPath(rec, segs, null);
    let node = rec;
    for (const s of segs.slice(0, -1)) node = node[s];
    node[segs[segs.length - 1]] = values[i % values.length];
  }
  rec.name = `record ${id}`;
  return rec;
}

/**
 * Values a record filter keeps: `record.type in ['scrum', 'simple']`, `record['status'] == 'active'`,
 * `record.get('kind') == "x"` give the field that literal, so that records pass the filter (source-jira's
 * boards keep only scrum and simple boards; with made-up values no child stream got a partition).
 */
function filterLiterals(condition) {
  const out = [];
  if (typeof condition !== 'string') return out;
  const re = /record(?:\.(\w+)|\[['"](\w+)['"]\]|\.get\(\s*['"](\w+)['"][^)]*\))\s*(==|in)\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g;
  for (const m of condition.matchAll(re)) {
    const field = m[1] ?? m[2] ?? m[3];
    if (field === 'name' || field === 'id') continue;
    const lit = /'([^']*)'|"([^"]*)"/.exec(m[5]);
    if (lit) out.push([[field], lit[1] ?? lit[2]]);
  }
  return out;
}

/**
 * The next-page value the paginator reads. A cursor that cuts the token out of a link with `regex_search`
 * (`response.get("@odata.nextLink") | regex_search('\\$skiptoken=([^&]+)')`, source-microsoft-entra-id) gets a
 * link whose first group is the token; any other gets the token itself.
 */
function linkWithToken(d, nextUrl, token) {
  const m = /regex_search\(\s*\\?['"](.+?)\\?['"]\s*\)/.exec(String(d.strategy?.cursor_value ?? ''));
  if (!m || token !== `ptok-${/ptok-(\d+)/.exec(token)?.[1]}`) return token;
  // The literal text before the first group (`$skiptoken=`), unescaped.
  const prefix = m[1].split('(')[0].replace(/\\(.)/g, '$1').replace(/^\^/, '');
  const link = `${nextUrl.toString()}&${prefix}${token}`;
  try {
    return new RegExp(m[1].replace(/\\\\/g, '\\')).exec(link)?.[1] === token ? link : token;
  } catch {
    return token;
  }
}

/** `[field, input format]` of every `format_datetime(record['f'], '<out>', '<in>')` in the transformations. */
function inputDateFormats(transformations) {
  const out = [];
  const text = JSON.stringify(transformations ?? []);
  const re = /format_datetime\(\s*record(?:\[\\?['"](\w+)\\?['"]\]|\.(\w+))\s*,\s*\\?['"][^'"\\]*\\?['"]\s*,\s*\\?['"]([^'"\\]+)\\?['"]/g;
  for (const m of text.matchAll(re)) out.push([m[1] ?? m[2], m[3]]);
  return out;
}

/** Which page a request asks for, from the tokens the API handed out or the paginator's numbers. */
function pageOf(req, url, body, d) {
  const values = [];
  for (const [, v] of url.searchParams) values.push(v);
  for (const v of Object.values(req.headers)) values.push(String(v));
  if (body) {
    values.push(body);
    try {
      const walk = (x) => {
        if (x && typeof x === 'object') Object.values(x).forEach(walk);
        else values.push(String(x));
      };
      walk(JSON.parse(body));
    } catch {
      /* form bodies are searched as text */
    }
  }
  for (const v of values) {
    const m = /ptok-(\d+)/.exec(v);
    if (m) return Number(m[1]);
  }
  const pg = url.searchParams.get('__pg');
  if (pg) return Number(pg);
  const s = d?.strategy;
  const opt = d?.tokenOption;
  if (s && opt && typeof opt.field_name === 'string') {
    const name = opt.field_name;
    let raw = url.searchParams.get(name);
    if (raw === null && body) {
      try {
        raw = JSON.parse(body)?.[name] ?? null;
      } catch {
        raw = new URLSearchParams(body).get(name);
      }
    }
    if (raw === null) raw = req.headers[name.toLowerCase()] ?? null;
    if (raw !== null && raw !== undefined) {
      const n = Number(raw);
      if (Number.isFinite(n)) {
        if (s.type === 'OffsetIncrement') return Math.floor(n / (d.pageSize ?? 5)) + 1;
        // A cursor computed from an offset the API reports (`response.startAt + response.maxResults`).
        if (s.type === 'CursorPagination' && OFFSET_FIELD.test(String(s.cursor_value ?? ''))) return Math.floor(n / (d.pageSize ?? 5)) + 1;
        if (s.type === 'PageIncrement') return n - Number(s.start_from_page ?? 1) + 1;
        // A numeric cursor is an offset (`startAt + maxResults`) when at least a page, else a page number.
        if (s.type === 'CursorPagination') {
          const size = Math.min(d.pageSize ?? 5, MAX_FULL_PAGE);
          return size > 1 && n >= size ? Math.floor(n / size) + 1 : n;
        }
      }
    }
  }
  return 1;
}

/** Starts the synthesized API; `configure(resolvedManifest, config)` gives it the routes to serve. */
export async function startSyntheticApi() {
  const server = createServer();
  // Idle connections stay open for the whole manifest: with Node's 5 s default, a process that stalls
  // (a starved machine) resets a request that arrived during the stall (test/unit/scripts/harnessApiKeepAlive).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const api = {
    port,
    exchanges: [],
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
  api.configure = (resolved, cfg) => {
    const streams = Array.isArray(resolved.streams) ? resolved.streams : [];
    const routes = [];
    const asyncRoutes = [];
    const seen = new Set();
    const collect = (stream) => {
      if (!stream || typeof stream !== 'object' || seen.has(stream)) return;
      seen.add(stream);
      const requester = stream.retriever?.requester;
      if (requester)
        routes.push({
          ...routeRegex(requester, port, cfg),
          hints: requestHints(requester),
          d: describeStream(stream, streams, cfg),
          index: routes.length,
        });
      if (stream.retriever?.type === 'AsyncRetriever')
        asyncRoutes.push(...describeAsync(stream, streams, cfg, port, routes.length + asyncRoutes.length));
      for (const p of findAll(stream.retriever?.partition_router ?? null, (n) => n.type === 'ParentStreamConfig')) collect(p.stream);
    };
    streams.forEach(collect);
    const auth = [];
    for (const a of findAll(resolved, (n) => n.type === 'OAuthAuthenticator' && typeof n.token_refresh_endpoint === 'string')) {
      auth.push({ kind: 'oauth', ...routeRegex({ url: a.token_refresh_endpoint, $parameters: a.$parameters }, port, cfg), a });
    }
    for (const a of findAll(resolved, (n) => n.type === 'SessionTokenAuthenticator' && n.login_requester)) {
      auth.push({ kind: 'session', ...routeRegex(a.login_requester, port, cfg), a });
    }
    api.routes = routes;
    api.asyncRoutes = asyncRoutes;
    api.auth = auth;
  };
  api.routes = [];
  api.asyncRoutes = [];
  api.auth = [];
  // Asynchronous jobs of the current read: each side's read starts from job 1 (resetJobs), so both
  // see the same job ids and the same answers.
  api.jobs = [];
  api.resetJobs = () => {
    api.jobs = [];
  };

  server.on('request', (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
      const url = new URL(req.url, `http://127.0.0.1:${port}`);
      const answer = respond(api, req, url, body);
      api.exchanges.push({
        method: req.method,
        url: req.url,
        headers: { ...req.headers },
        body,
        status: answer.status,
        responseHeaders: answer.headers,
        responseBody: answer.body,
        ...(answer.asyncKind ? { asyncKind: answer.asyncKind } : {}),
      });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  return api;
}

function json(status, value, headers = {}) {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

function respond(api, req, url, body) {
  // The most specific route answers: a token endpoint only when no data route has a longer literal
  // part (a catch-all token route must not answer data requests).
  // Routes are written as the manifest spells them; the path arrives percent-encoded
  // (`<your-domain>` → `%3Cyour-domain%3E`): either spelling matches.
  let decoded = url.pathname;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    /* keep the raw path */
  }
  const hits = (r) => r.re.test(url.pathname) || r.re.test(decoded);
  const bestData = Math.max(-1, ...api.routes.filter(hits).map((r) => r.literal));
  for (const a of api.auth) {
    if (!hits(a) || a.literal < bestData) continue;
    if (a.kind === 'oauth') {
      const at = Array.isArray(a.a.access_token_name) ? a.a.access_token_name : [a.a.access_token_name ?? 'access_token'];
      const out = {};
      setPath(out, at.map(String), 'synthetic-access-token');
      out[a.a.expires_in_name ?? 'expires_in'] = 3600;
      if (a.a.refresh_token_updater) out[a.a.refresh_token_updater.refresh_token_name ?? 'refresh_token'] = 'synthetic-refresh-2';
      return json(200, out);
    }
    const path = Array.isArray(a.a.session_token_path) ? a.a.session_token_path.map(String) : ['token'];
    const out = {};
    setPath(out, path, 'synthetic-session-token');
    return json(200, out);
  }
  // Several streams may share one path (GraphQL): the fixed parts of their request bodies and
  // parameters tell them apart.
  const asyncAnswer = respondAsync(api, req, url, body, hits, bestData);
  if (asyncAnswer) return asyncAnswer;
  const sent = `${decodeURIComponent(url.search)}\n${body ?? ''}`;
  const score = (r) => r.hints.filter((h) => sent.includes(h)).length;
  const candidates = api.routes.filter(hits).sort((x, y) => y.literal - x.literal || score(y) - score(x));
  const route = candidates[0];
  if (!route) return json(404, { error: 'no synthesized route for this path' });
  const d = route.d;
  const page = Math.max(1, pageOf(req, url, body, d));
  const more = page < LAST_PAGE && d.paginator !== null;
  // Full pages up to 1000 records (OffsetIncrement and PageIncrement only go on after a full page).
  const count = d.paginator ? (more ? Math.min(d.pageSize ?? 5, MAX_FULL_PAGE) : 1) : 3;
  // Streams reading the same path (a parent defined twice, once with a record filter) share records,
  // so the values every one of their filters keeps are set.
  const kept = candidates.filter((r) => r.re.source === route.re.source).flatMap((r) => r.d.filterValues);
  const records = Array.from({ length: count }, (_, i) => makeRecord(d, page, i, route.index, kept));
  const headers = {};
  const nextUrl = new URL(url.toString());
  nextUrl.searchParams.set('__pg', String(page + 1));
  const tokenIsPath = d.tokenOption?.type === 'RequestPath';
  const token = tokenIsPath ? nextUrl.toString() : `ptok-${page + 1}`;
  // Header-based pagination: Link header and any other header the strategy reads.
  for (const segs of d.headerPaths) {
    const name = segs[0]?.toLowerCase();
    if (!name) continue;
    if (name === 'link') {
      // Sentry-style links always name a next page and say in `results` whether it holds any, with the
      // cursor as a parameter (`headers.link.next.results == "false"` stops); other links stop by having none.
      if (d.headerPaths.some((p) => p.includes('results')))
        headers.Link = `<${nextUrl.toString()}>; rel="next"; results="${more}"; cursor="${more ? token : ''}"`;
      else if (more) headers.Link = `<${nextUrl.toString()}>; rel="next"`;
    } else if (more) headers[segs[0]] = token;
  }
  let bodyValue;
  if (d.fieldPath.length === 0 && d.responsePaths.length) {
    // The body is the record, and also where the paginator reads its next token.
    bodyValue = records[0];
  } else if (d.fieldPath.length === 0) {
    bodyValue = records;
  } else {
    bodyValue = {};
    const star = d.fieldPath.indexOf('*');
    // A `*` path yields every value it matches as one record (dpath.values, no flattening): the glob
    // walks a list (or, first in the path, the values of the body) whose elements each hold one record
    // at the rest of the path.
    const suffix = d.fieldPath.slice(star + 1);
    // A later `*` (freshbooks: clients/*/invoices/*) is a list of one element holding the rest.
    const wrapAt = (segs, r) => {
      if (!segs.length) return r;
      const next = segs.indexOf('*');
      const o = {};
      if (next === -1) setPath(o, segs, r);
      else if (next === 0) return [wrapAt(segs.slice(1), r)];
      else setPath(o, segs.slice(0, next), [wrapAt(segs.slice(next + 1), r)]);
      return o;
    };
    const wrap = (r) => wrapAt(suffix, r);
    if (star === -1) setPath(bodyValue, d.fieldPath, records);
    // `*` first: the JSON decoder yields each element of a top-level list as a body of its own, so
    // the body is an object whose values are the records.
    else if (star === 0) bodyValue = Object.fromEntries(records.map((r, i) => [`r${i}`, wrap(r)]));
    else setPath(bodyValue, d.fieldPath.slice(0, star), records.map(wrap));
  }
  if (!Array.isArray(bodyValue)) {
    for (const segs of d.responsePaths) {
      const last = segs[segs.length - 1] ?? '';
      let v;
      if (/has_?more|more|has_?next/i.test(last)) v = more;
      else if (/^is_?last$|^is_?done$|^done$/i.test(last)) v = !more;
      // An offset and a page size the API reports, for a cursor computed from them (source-jira:
      // `response.get('startAt') + response['maxResults']`, stopping at `total`).
      else if (OFFSET_FIELD.test(last)) v = (page - 1) * Math.min(d.pageSize ?? 5, MAX_FULL_PAGE);
      else if (/^max_?results$|^per_?page$|^page_?size$/i.test(last)) v = count;
      else if (/total|count|pages|size|limit/i.test(last)) v = /pages/i.test(last) ? LAST_PAGE : LAST_PAGE * (d.pageSize ?? 5);
      else if (/^page$|current_page|page_number/i.test(last)) v = page;
      else v = more ? linkWithToken(d, nextUrl, token) : null;
      setPath(bodyValue, segs, v);
    }
  }
  // An XmlDecoder reads the body with xmltodict: the same tree as XML (one root element; a list is the
  // element repeated), so that both sides parse records instead of failing on JSON.
  if (
    d.decoder === 'XmlDecoder' &&
    bodyValue &&
    typeof bodyValue === 'object' &&
    !Array.isArray(bodyValue) &&
    Object.keys(bodyValue).length === 1
  ) {
    return {
      status: 200,
      headers: { 'content-type': 'application/xml', ...headers },
      body: `<?xml version="1.0" encoding="UTF-8"?>\n${toXml(bodyValue)}`,
    };
  }
  if (d.decoder === 'JsonlDecoder') {
    return {
      status: 200,
      headers: { 'content-type': 'application/jsonl', ...headers },
      body: records.map((r) => JSON.stringify(r)).join('\n'),
    };
  }
  return json(200, bodyValue, headers);
}

// ---------------------------------------------------------------------------------------------------
// Asynchronous jobs (AsyncRetriever): the creation request answers a job id where the other requesters
// read it (`creation_response['id']`), the first status poll of a job says it is still running (the
// status mapping's first `running` value), the next one that it completed (first `completed` value) with
// its download target(s): URLs on this API under /__async/<job>/<part>, answered with records encoded as
// the download decoder reads them (gzip, CSV, JSON lines or JSON).

/** The routes of one AsyncRetriever stream: creation, polling and (when it has one) download target. */
function describeAsync(stream, allStreams, config, port, index) {
  const r = stream.retriever;
  const params = stream.$parameters ?? {};
  const paths = (node, root) => referencedPaths(node, root);
  const later = [
    r.polling_requester,
    r.download_target_requester,
    r.download_requester,
    r.abort_requester,
    r.delete_requester,
    r.download_paginator,
  ];
  const evalPath = (ex) => (Array.isArray(ex?.field_path) ? ex.field_path.map((p) => evalString(p, config, ex.$parameters ?? params)) : []);
  const mapping = r.status_mapping ?? {};
  const first = (k) => (Array.isArray(mapping[k]) && mapping[k].length ? mapping[k][0] : null);
  // The downloaded records are described as a stream whose response is the download.
  const downloadExtractor = r.download_extractor ?? { type: 'DpathExtractor', field_path: [] };
  const d = describeStream(
    {
      ...stream,
      retriever: { record_selector: { ...(r.record_selector ?? {}), extractor: downloadExtractor }, requester: {}, paginator: null },
    },
    allStreams,
    config,
  );
  const job = {
    stream: stream.name,
    d,
    index,
    creationPaths: paths(later, 'creation_response'),
    statusPath: evalPath(r.status_extractor),
    targetPath: r.download_target_extractor ? evalPath(r.download_target_extractor) : null,
    running: first('running'),
    completed: first('completed'),
    decoders: decoderChain(r.download_decoder),
    hasTargetRequester: Boolean(r.download_target_requester),
  };
  const routes = [
    {
      kind: 'create',
      method: String(r.creation_requester?.http_method ?? 'GET').toUpperCase(),
      ...routeRegex(r.creation_requester ?? {}, port, config),
      job,
    },
  ];
  routes.push({
    kind: 'poll',
    method: String(r.polling_requester?.http_method ?? 'GET').toUpperCase(),
    ...routeRegex(r.polling_requester ?? {}, port, config),
    job,
  });
  if (r.download_target_requester)
    routes.push({
      kind: 'target',
      method: String(r.download_target_requester.http_method ?? 'GET').toUpperCase(),
      ...routeRegex(r.download_target_requester, port, config),
      job,
    });
  return routes;
}

/** The download decoder as a list of types, outermost first (`GzipDecoder` → `CsvDecoder`). */
function decoderChain(decoder) {
  const out = [];
  for (let d = decoder; d && typeof d === 'object'; d = d.decoder) out.push(d.type);
  return out.length ? out : ['JsonDecoder'];
}

/** Which job a polling, target or download request is about: the job id it carries. */
function jobOf(api, req, url, body) {
  const m = /job-(\d+)/.exec(`${url.pathname}?${url.search}\n${body ?? ''}\n${Object.values(req.headers).join('\n')}`);
  return m ? (api.jobs[Number(m[1]) - 1] ?? null) : (api.jobs[api.jobs.length - 1] ?? null);
}

function downloadTargets(api, job) {
  const origin = `http://127.0.0.1:${api.port}`;
  const last = job.route.job.targetPath?.[job.route.job.targetPath.length - 1] ?? '';
  // A plural field (`urls`, `files`) holds a list of targets: two, so the download has two pages.
  const urls = [1, 2].map((k) => `${origin}/__async/${job.id}/part-${k}`);
  return /s$|list/i.test(last) ? urls : urls[0];
}

function respondAsync(api, req, url, body, hits, bestData) {
  if (url.pathname.startsWith('/__async/')) return download(api, url);
  const candidates = api.asyncRoutes
    .filter(hits)
    .filter((r) => r.literal >= bestData)
    .sort((x, y) => y.literal - x.literal || Number(y.method === req.method) - Number(x.method === req.method));
  const route = candidates[0];
  if (!route) return null;
  const spec = route.job;
  if (route.kind === 'create') {
    const job = { id: `job-${api.jobs.length + 1}`, route, polls: 0 };
    api.jobs.push(job);
    const out = { id: job.id };
    const headers = {};
    for (const segs of spec.creationPaths) {
      if (segs[0] === 'headers' && segs[1]) headers[segs[1]] = job.id;
      else if (segs[0] !== 'request' && segs[0] !== 'headers') setPath(out, segs, job.id);
    }
    return json(200, out, headers);
  }
  const job = jobOf(api, req, url, body);
  if (!job) return json(404, { error: 'no asynchronous job was created' });
  const out = {};
  if (route.kind === 'poll') {
    job.polls++;
    const done = job.polls > 1 || spec.running === null;
    if (spec.statusPath.length) setPath(out, spec.statusPath, done ? spec.completed : spec.running);
    if (done && spec.targetPath?.length && !spec.hasTargetRequester) setPath(out, spec.targetPath, downloadTargets(api, job));
    return { ...json(200, out), asyncKind: 'poll' };
  }
  if (spec.targetPath?.length) setPath(out, spec.targetPath, downloadTargets(api, job));
  return json(200, out);
}

function download(api, url) {
  const m = /^\/__async\/job-(\d+)\/part-(\d+)$/.exec(url.pathname);
  const job = m ? api.jobs[Number(m[1]) - 1] : null;
  if (!job) return json(404, { error: 'no such download' });
  const spec = job.route.job;
  const d = spec.d;
  const records = Array.from({ length: 3 }, (_, i) => makeRecord(d, Number(m[2]), i, spec.index));
  const inner = spec.decoders.filter((t) => t !== 'GzipDecoder');
  const format = inner[inner.length - 1] ?? 'JsonDecoder';
  let text;
  if (format === 'CsvDecoder') text = toCsv(records);
  else if (format === 'JsonlDecoder') text = records.map((r) => JSON.stringify(r)).join('\n');
  else {
    let value = records;
    if (d.fieldPath.length && !d.fieldPath.includes('*')) {
      value = {};
      setPath(value, d.fieldPath, records);
    }
    text = JSON.stringify(value);
  }
  // Gzip once, sent as a gzip file (not as a transfer encoding): an outer GzipDecoder decompresses it,
  // an inner one passes the decompressed text through (the CDK's GzipParser does both).
  if (spec.decoders.includes('GzipDecoder'))
    return { status: 200, headers: { 'content-type': 'application/gzip' }, body: gzipSync(Buffer.from(text)) };
  return { status: 200, headers: { 'content-type': format === 'CsvDecoder' ? 'text/csv' : 'application/json' }, body: text };
}

/** Records as CSV text: a header of their top-level fields, nested values as JSON text. */
function toCsv(records) {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const cell = (v) => {
    const t = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  return [keys.map(cell).join(','), ...records.map((r) => keys.map((k) => cell(r[k])).join(','))].join('\n') + '\n';
}

/** A JSON value as XML elements: keys become elements, a list repeats its key's element, null is empty. */
function toXml(value) {
  const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const element = (name, v) => {
    if (Array.isArray(v)) return v.map((x) => element(name, x)).join('');
    if (v === null || v === undefined) return `<${name}/>`;
    if (typeof v === 'object')
      return `<${name}>${Object.entries(v)
        .map(([k, x]) => element(k, x))
        .join('')}</${name}>`;
    return `<${name}>${esc(typeof v === 'boolean' ? (v ? 'true' : 'false') : v)}</${name}>`;
  };
  return Object.entries(value)
    .map(([k, v]) => element(k, v))
    .join('');
}
