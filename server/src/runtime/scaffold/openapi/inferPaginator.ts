// A DefaultPaginator from an operation's query parameters and its response: a cursor parameter with
// the response field that feeds it, a next-page URL in the body, a `Link` header, offset / limit or
// page / per_page. The order is that of certainty: a cursor names its source, page numbers do not.
import type { NotedComponent } from '../connectorDraft';
import type { ApiOperation, ApiParameter } from './operations';
import { obj } from './operations';
import { properties } from './recordSchema';

const CURSOR_PARAMS = [
  'cursor',
  'page_token',
  'pagetoken',
  'next_page_token',
  'nextpagetoken',
  'starting_after',
  'start_cursor',
  'page_cursor',
  'continuation_token',
  'continuationtoken',
  'continuation',
  'marker',
  'next_token',
  'nexttoken',
  'pagination_token',
  'paginationtoken',
  'after',
  'next',
  'page[after]',
  'page[cursor]',
  'skiptoken',
  '$skiptoken',
];
const CURSOR_FIELDS = [
  'next_cursor',
  'nextcursor',
  'next_page_token',
  'nextpagetoken',
  'next_token',
  'nexttoken',
  'cursor',
  'continuation_token',
  'continuationtoken',
  'next_marker',
  'nextmarker',
  'marker',
  'end_cursor',
  'endcursor',
  'after',
  'next_page_cursor',
];
const NEXT_URL_FIELDS = [
  'next',
  'next_url',
  'nexturl',
  'next_link',
  'nextlink',
  '@odata.nextlink',
  'next_page_url',
  'nextpageurl',
  'next_page',
  'nextpage',
];
const WRAPPERS = [
  'next_page',
  'nextpage',
  'meta',
  'metadata',
  'pagination',
  'paging',
  'page_info',
  'pageinfo',
  'response_metadata',
  'links',
  '_links',
  'cursor',
  'page',
];
const PAGE_PARAMS = [
  'page',
  'page_number',
  'pagenumber',
  'pageno',
  'page_no',
  'page_num',
  'pagenum',
  'pageindex',
  'page_index',
  'page[number]',
];
const SIZE_PARAMS = [
  'per_page',
  'perpage',
  'page_size',
  'pagesize',
  'limit',
  'size',
  'count',
  'max_results',
  'maxresults',
  'results_per_page',
  'page[size]',
  'page[limit]',
  'max',
  'top',
  '$top',
  'pagelen',
  'number',
];
const OFFSET_PARAMS = ['offset', 'skip', 'start', 'startindex', 'start_index', 'from', '$skip', 'page[offset]'];

/** Names of query parameters the paginator took (they are not asked for as inputs). */
export type InferredPaginator = { paginator?: NotedComponent; consumed: string[] };

/** The paginator for `op` (none when nothing suggests paging); `primaryKey` helps `starting_after`. */
export function inferPaginator(op: ApiOperation, isList: boolean, primaryKey: string | undefined): InferredPaginator {
  if (!isList) return { consumed: [] };
  const query = op.parameters.filter((p) => p.in === 'query');
  const find = (names: string[]) => {
    for (const n of names) {
      const p = query.find((q) => q.name.toLowerCase() === n);
      if (p) return p;
    }
    return undefined;
  };
  const size = find(SIZE_PARAMS);
  const sizeOption = size ? { page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: size.name } } : {};
  const pageSize = size ? pageSizeOf(size) : 100;
  const sizeWhy = size ? `, page size "${size.name}"` : '';
  const response = op.responseSchema ?? {};

  // An offset that is a string is an opaque token, not a count.
  const tokenOffset = find(OFFSET_PARAMS);
  const cursorParam = find(CURSOR_PARAMS) ?? (tokenOffset && tokenOffset.schema.type === 'string' ? tokenOffset : undefined);
  if (cursorParam) {
    const field =
      findField(response, CURSOR_FIELDS) ??
      (cursorParam.name.toLowerCase() === 'next' ? undefined : findField(response, [cursorParam.name.toLowerCase()]));
    const hasMore = findField(response, ['has_more', 'hasmore', 'has_next', 'hasnext', 'has_next_page', 'hasnextpage', 'more']);
    let cursorValue: string | undefined;
    let stop: string | undefined;
    let why: string;
    if (field) {
      cursorValue = `{{ ${field.expr} }}`;
      stop = `{{ not ${field.expr} }}`;
      why = `query parameter "${cursorParam.name}" takes the response's "${field.path}"`;
    } else if (primaryKey && /after|starting/.test(cursorParam.name.toLowerCase())) {
      cursorValue = `{{ last_record['${primaryKey}'] }}`;
      stop = hasMore ? `{{ not ${hasMore.expr} }}` : '{{ not last_record }}';
      why = `query parameter "${cursorParam.name}" takes the last record's "${primaryKey}"${hasMore ? `, until "${hasMore.path}" is false` : ''}`;
    } else {
      return { consumed: [] };
    }
    return {
      consumed: [cursorParam.name, ...(size ? [size.name] : [])],
      paginator: {
        why: `${why}${sizeWhy} (check the names against the API's docs)`,
        value: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: cursorParam.name },
          ...sizeOption,
          pagination_strategy: {
            type: 'CursorPagination',
            cursor_value: cursorValue,
            stop_condition: stop,
            ...(size ? { page_size: pageSize } : {}),
          },
        },
      },
    };
  }

  const nextUrl = findField(response, NEXT_URL_FIELDS, true);
  if (nextUrl) {
    return {
      consumed: size ? [size.name] : [],
      paginator: {
        why: `the response's "${nextUrl.path}" holds the next page's URL${sizeWhy}`,
        value: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestPath' },
          ...sizeOption,
          pagination_strategy: {
            type: 'CursorPagination',
            cursor_value: `{{ ${nextUrl.expr} }}`,
            stop_condition: `{{ not ${nextUrl.expr} }}`,
            ...(size ? { page_size: pageSize } : {}),
          },
        },
      },
    };
  }

  if (op.responseHeaders.includes('link')) {
    return {
      consumed: size ? [size.name] : [],
      paginator: {
        why: `the response's Link header (rel="next")${sizeWhy}`,
        value: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestPath' },
          ...sizeOption,
          pagination_strategy: {
            type: 'CursorPagination',
            cursor_value: "{{ headers['link']['next']['url'] }}",
            stop_condition: "{{ 'next' not in headers['link'] }}",
            ...(size ? { page_size: pageSize } : {}),
          },
        },
      },
    };
  }

  const offset = find(OFFSET_PARAMS);
  if (offset && isNumeric(offset)) {
    return {
      consumed: [offset.name, ...(size ? [size.name] : [])],
      paginator: {
        why: `query parameters "${offset.name}"${size ? ` and "${size.name}"` : ''}: offset paging${size ? '' : ' (no limit parameter: check page_size against the API)'}`,
        value: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: offset.name },
          ...sizeOption,
          pagination_strategy: { type: 'OffsetIncrement', page_size: pageSize },
        },
      },
    };
  }

  const page = find(PAGE_PARAMS);
  if (page && isNumeric(page)) {
    const min =
      typeof page.schema.minimum === 'number' ? page.schema.minimum : typeof page.schema.default === 'number' ? page.schema.default : 1;
    return {
      consumed: [page.name, ...(size ? [size.name] : [])],
      paginator: {
        why: `query parameters "${page.name}"${size ? ` and "${size.name}"` : ''}: page-number paging${size ? '' : ' (no page size parameter: check page_size against the API)'}`,
        value: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: page.name },
          ...sizeOption,
          pagination_strategy: { type: 'PageIncrement', page_size: pageSize, start_from_page: min === 0 ? 0 : 1 },
        },
      },
    };
  }
  return { consumed: [] };
}

function isNumeric(p: ApiParameter): boolean {
  const t = p.schema.type;
  return t === undefined || t === 'integer' || t === 'number' || (Array.isArray(t) && (t.includes('integer') || t.includes('number')));
}

/** The page size to ask for: the parameter's default, else 100 within its maximum. */
function pageSizeOf(p: ApiParameter): number {
  const d = p.schema.default;
  if (typeof d === 'number' && Number.isInteger(d) && d > 0) return d;
  const max = p.schema.maximum;
  if (typeof max === 'number' && max > 0 && max < 100) return Math.floor(max);
  return 100;
}

/** A response field named one of `names` (top level, or inside a usual wrapper), as a Jinja expression. */
function findField(schema: Record<string, unknown>, names: string[], urlLike = false): { path: string; expr: string } | undefined {
  const top = properties(schema);
  const match = (props: Record<string, unknown>) => {
    for (const n of names) {
      const key = Object.keys(props).find((k) => k.toLowerCase() === n);
      if (key === undefined) continue;
      const t = obj(props[key]).type;
      // A next-page URL is a string; `{ next: { href } }` (HAL) is followed one level down.
      if (urlLike && t === 'object') {
        const href = Object.keys(properties(obj(props[key]))).find((k) => k === 'href' || k === 'url');
        if (href) return [key, href];
        continue;
      }
      if (urlLike && t !== undefined && t !== 'string' && !(Array.isArray(t) && t.includes('string'))) continue;
      return [key];
    }
    return undefined;
  };
  const direct = match(top);
  if (direct) return fieldExpr(direct);
  for (const wrapper of Object.keys(top)) {
    if (!WRAPPERS.includes(wrapper.toLowerCase())) continue;
    const inner = match(properties(obj(top[wrapper])));
    if (inner) return fieldExpr([wrapper, ...inner]);
  }
  return undefined;
}

function fieldExpr(path: string[]): { path: string; expr: string } {
  const q = (k: string) => `'${k.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  // `.get` on every level: a missing wrapper on the last page ends paging instead of failing.
  const expr = path.map((k, i) => (i === path.length - 1 ? `.get(${q(k)})` : `.get(${q(k)}, {})`)).join('');
  return { path: path.join('.'), expr: `response${expr}` };
}
