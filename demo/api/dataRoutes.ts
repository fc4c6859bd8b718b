// Data sets of the demo API, one per pagination style: offset/limit, page/page_size (0- and 1-based),
// a cursor in the body, a next URL in the body, a Link header; plus parent/children for substreams
// time-filtered events for incremental slices, and a data set that refuses to page deeper than a cap
// (for pagination reset). Every route answers JSON.
import type { ServerResponse } from 'node:http';
import type { DemoRequest, DemoState, RouteModule } from './types';
import { DEFAULT_TOTAL, children, firstUpdatedAtOrAfter, intParam, item, items, parents } from './datasets';

/** Sends a JSON body with optional extra headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function badRequest(res: ServerResponse, message: string): true {
  sendJson(res, 400, { error: message });
  return true;
}

/** Route module of the paginated data sets; answers 400 on malformed paging parameters. */
export const dataRoutes: RouteModule = (req: DemoRequest, res: ServerResponse, state: DemoState) => {
  if (req.method !== 'GET' && req.method !== 'POST') return false;
  const q = req.query;
  const total = intParam(q, 'total', DEFAULT_TOTAL);
  if (Number.isNaN(total)) return badRequest(res, 'total must be a non-negative integer');
  switch (req.path) {
    case '/wide/items': {
      // One page of `records` records with `keys` fields each: the results view must show it at once.
      const records = intParam(q, 'records', 100, 1000);
      const keys = intParam(q, 'keys', 2000, 10_000);
      if (Number.isNaN(records) || Number.isNaN(keys)) return badRequest(res, 'records and keys must be non-negative integers');
      const data = Array.from({ length: records }, (_, r) => Object.fromEntries(Array.from({ length: keys }, (_, k) => [`field_${k}`, `r${r}k${k}`])));
      sendJson(res, 200, { data });
      return true;
    }
    case '/offset/items': {
      const offset = intParam(q, 'offset', 0);
      const limit = intParam(q, 'limit', 50, 1000);
      if (Number.isNaN(offset) || Number.isNaN(limit)) return badRequest(res, 'offset and limit must be non-negative integers');
      sendJson(res, 200, { data: items(offset, limit, total), total });
      return true;
    }
    case '/page/items':
    case '/page1/items': {
      const base = req.path === '/page1/items' ? 1 : 0;
      const page = intParam(q, 'page', base);
      const size = intParam(q, 'page_size', 50, 1000);
      if (Number.isNaN(page) || Number.isNaN(size) || page < base) return badRequest(res, `page must be an integer >= ${base}`);
      sendJson(res, 200, { items: items((page - base) * size, size, total), page });
      return true;
    }
    case '/cursor/items': {
      const limit = intParam(q, 'limit', 50, 1000);
      const cursor = q.get('cursor');
      const offset = cursor ? decodeCursor(cursor) : 0;
      if (Number.isNaN(offset) || Number.isNaN(limit)) return badRequest(res, 'invalid cursor or limit');
      const next = offset + limit < total ? encodeCursor(offset + limit) : null;
      sendJson(res, 200, { records: items(offset, limit, total), meta: { next_cursor: next } });
      return true;
    }
    case '/next-url/items': {
      const limit = intParam(q, 'limit', 50, 1000);
      const offset = intParam(q, 'offset', 0);
      if (Number.isNaN(offset) || Number.isNaN(limit)) return badRequest(res, 'offset and limit must be non-negative integers');
      let next: string | null = null;
      if (offset + limit < total) {
        const u = new URL('/next-url/items', state.baseUrl);
        for (const [k, v] of q) if (k !== 'offset') u.searchParams.append(k, v);
        u.searchParams.set('offset', String(offset + limit));
        next = u.toString();
      }
      sendJson(res, 200, { results: items(offset, limit, total), next });
      return true;
    }
    case '/link/items': {
      const page = intParam(q, 'page', 1);
      const perPage = intParam(q, 'per_page', 50, 1000);
      if (Number.isNaN(page) || Number.isNaN(perPage) || page < 1 || perPage < 1) return badRequest(res, 'page and per_page must be positive integers');
      const last = Math.max(1, Math.ceil(total / perPage));
      const link = (p: number, rel: string) => {
        const u = new URL('/link/items', state.baseUrl);
        for (const [k, v] of q) if (k !== 'page') u.searchParams.append(k, v);
        u.searchParams.set('page', String(p));
        return `<${u.toString()}>; rel="${rel}"`;
      };
      const links = [page < last ? link(page + 1, 'next') : null, link(last, 'last')].filter(Boolean).join(', ');
      sendJson(res, 200, items((page - 1) * perPage, perPage, total), { Link: links });
      return true;
    }
    case '/capped/items': {
      // Like APIs that cap offsets at 10,000: no query may reach past `cap` records, however it is
      // paged; the way to read on is to filter by updated_since (items are sorted by updated_at).
      const offset = intParam(q, 'offset', 0);
      const limit = intParam(q, 'limit', 25, 1000);
      const cap = intParam(q, 'cap', 50);
      const since = q.get('updated_since');
      const sinceMs = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
      if (Number.isNaN(offset) || Number.isNaN(limit) || Number.isNaN(cap)) return badRequest(res, 'offset, limit and cap must be non-negative integers');
      if (Number.isNaN(sinceMs)) return badRequest(res, 'updated_since must be an ISO 8601 datetime');
      if (offset + limit > cap) return badRequest(res, `Result window too deep: offset + limit may not exceed ${cap}. Narrow the query with updated_since instead.`);
      const first = Number.isFinite(sinceMs) ? firstUpdatedAtOrAfter(sinceMs) : 0;
      sendJson(res, 200, { data: items(first + offset, limit, total) });
      return true;
    }
    case '/parents': {
      sendJson(res, 200, { parents: parents(intParam(q, 'total', 4)) });
      return true;
    }
    case '/events': {
      // Events filtered by created_at within [start, end], for DatetimeBasedCursor slices.
      const start = Date.parse(q.get('start') ?? '');
      const end = Date.parse(q.get('end') ?? '');
      if (Number.isNaN(start) || Number.isNaN(end)) return badRequest(res, 'start and end must be ISO 8601 datetimes');
      const out: Record<string, unknown>[] = [];
      for (let i = 0; i < total; i++) {
        const t = Date.parse(String(item(i).created_at));
        if (t >= start && t <= end) out.push(item(i));
        if (out.length >= 1000) break;
      }
      sendJson(res, 200, { events: out });
      return true;
    }
  }
  const child = /^\/parents\/([^/]+)\/children$/.exec(req.path);
  if (child) {
    sendJson(res, 200, { children: children(decodeURIComponent(child[1])) });
    return true;
  }
  return false;
};

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? Number(m[1]) : Number.NaN;
}
