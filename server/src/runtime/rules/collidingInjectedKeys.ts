// Rule `colliding-injected-keys`: two parts of a stream (requester mappings, authenticator,
// paginator, incremental cursor, partition routers) writing the same query parameter, header or form
// field. Spec §4.5: any duplicate key there is an error at request time, even with equal values.
// A warning, not an error: a template value that renders empty drops its key (§3.4), so whether both
// are sent is only known at run time. Two options of one component (the paginator's size and token,
// the cursor's start and end) are what changed across versions, so the message says what the declared
// version did: before 6.33.7 the later option silently replaced the earlier one; since then the CDK
// refuses to build the component.
import type { JsonPath } from '../manifest/origins';
import { isOlderThan, type CdkVersion } from '../schema/versions';
import type { Rule, RuleFinding } from './types';
import { componentAt, isMapping } from './types';

/** airbyte-python-cdk PR #328 (February 2025, first released in 6.33.7): a component's own request options are checked for conflicts when it is built, and collisions say "Request body collision". */
export const COMPONENT_OPTION_CHECK_ADDED_IN = '6.33.7';

type Part = 'request_parameter' | 'header' | 'body_data';
/** `component`: the paginator or cursor an option belongs to (its own options are checked together). */
type Injection = { part: Part; key: string; path: JsonPath; anchor: 'key' | 'value'; source: string; component?: 'paginator' | 'cursor' };

const PART_WORDS: Record<Part, string> = { request_parameter: 'query parameter', header: 'header', body_data: 'form field' };

/** Injections of a RequestOption at `path` (skipped when its name is a template: it is only known at run time). */
function fromOption(option: unknown, path: JsonPath, source: string, out: Injection[], component?: Injection['component']): void {
  if (!isMapping(option) || option.type !== 'RequestOption') return;
  const part = option.inject_into;
  const name = option.field_name;
  if ((part === 'request_parameter' || part === 'header' || part === 'body_data') && typeof name === 'string' && !name.includes('{{')) {
    out.push({ part, key: name, path: [...path, 'field_name'], anchor: 'value', source, ...(component ? { component } : {}) });
  }
}

function fromMapping(mapping: unknown, part: Part, path: JsonPath, source: string, out: Injection[]): void {
  if (!isMapping(mapping)) return;
  for (const key of Object.keys(mapping)) if (!key.includes('{{')) out.push({ part, key, path: [...path, key], anchor: 'key', source });
}

function fromAuthenticator(auth: Record<string, unknown>, path: JsonPath, out: Injection[]): void {
  const source = `the ${String(auth.type)}`;
  switch (auth.type) {
    case 'ApiKeyAuthenticator':
      if (typeof auth.header === 'string' && !auth.header.includes('{{'))
        out.push({ part: 'header', key: auth.header, path: [...path, 'header'], anchor: 'value', source });
      fromOption(auth.inject_into, [...path, 'inject_into'], source, out);
      break;
    case 'BearerAuthenticator':
    case 'BasicHttpAuthenticator':
    case 'OAuthAuthenticator':
      out.push({ part: 'header', key: 'Authorization', path: [...path, 'type'], anchor: 'value', source });
      break;
    case 'JwtAuthenticator':
      if (auth.request_option != null) fromOption(auth.request_option, [...path, 'request_option'], source, out);
      else out.push({ part: 'header', key: 'Authorization', path: [...path, 'type'], anchor: 'value', source });
      break;
    default:
      break;
  }
}

/** Everything one stream's requests receive, with where each injection is written. */
function injectionsOfStream(stream: Record<string, unknown>, path: JsonPath): Injection[] {
  const out: Injection[] = [];
  const retriever = componentAt(stream, 'retriever');
  if (!retriever || retriever.type !== 'SimpleRetriever') return out;
  const rPath = [...path, 'retriever'];
  const requester = componentAt(retriever, 'requester');
  if (requester?.type === 'HttpRequester') {
    const q = [...rPath, 'requester'];
    fromMapping(
      requester.request_parameters,
      'request_parameter',
      [...q, 'request_parameters'],
      "the requester's `request_parameters`",
      out,
    );
    fromMapping(requester.request_headers, 'header', [...q, 'request_headers'], "the requester's `request_headers`", out);
    fromMapping(requester.request_body_data, 'body_data', [...q, 'request_body_data'], "the requester's `request_body_data`", out);
    const auth = componentAt(requester, 'authenticator');
    if (auth) fromAuthenticator(auth, [...q, 'authenticator'], out);
  }
  const paginator = componentAt(retriever, 'paginator');
  if (paginator?.type === 'DefaultPaginator') {
    fromOption(
      paginator.page_size_option,
      [...rPath, 'paginator', 'page_size_option'],
      "the paginator's `page_size_option`",
      out,
      'paginator',
    );
    fromOption(
      paginator.page_token_option,
      [...rPath, 'paginator', 'page_token_option'],
      "the paginator's `page_token_option`",
      out,
      'paginator',
    );
  }
  const cursor = componentAt(stream, 'incremental_sync');
  if (cursor?.type === 'DatetimeBasedCursor') {
    fromOption(
      cursor.start_time_option,
      [...path, 'incremental_sync', 'start_time_option'],
      "the cursor's `start_time_option`",
      out,
      'cursor',
    );
    fromOption(cursor.end_time_option, [...path, 'incremental_sync', 'end_time_option'], "the cursor's `end_time_option`", out, 'cursor');
  }
  const routers = Array.isArray(retriever.partition_router) ? retriever.partition_router : [retriever.partition_router];
  routers.forEach((router, i) => {
    if (!isMapping(router)) return;
    const base = Array.isArray(retriever.partition_router) ? [...rPath, 'partition_router', i] : [...rPath, 'partition_router'];
    if (router.type === 'ListPartitionRouter')
      fromOption(router.request_option, [...base, 'request_option'], "the partition router's `request_option`", out);
    if (router.type === 'SubstreamPartitionRouter' && Array.isArray(router.parent_stream_configs)) {
      router.parent_stream_configs.forEach((p, j) => {
        if (isMapping(p))
          fromOption(p.request_option, [...base, 'parent_stream_configs', j, 'request_option'], "a parent stream's `request_option`", out);
      });
    }
  });
  return out;
}

/** What the declared CDK version does with the two injections (`earlier` is written first by the CDK's own code). */
function collisionMessage(earlier: Injection, later: Injection, version: CdkVersion | undefined): string {
  const head = `The ${PART_WORDS[later.part]} \`${later.key}\` is set by ${later.source} and by ${earlier.source}`;
  const old = version !== undefined && isOlderThan(version, COMPONENT_OPTION_CHECK_ADDED_IN);
  const declared = version ? version.join('.') : '';
  const refusal = `"Request body collision, duplicate keys detected at key path: ${later.key}. Please ensure that all keys in the request are unique."`;
  if (earlier.component && earlier.component === later.component) {
    const what = earlier.component === 'paginator' ? 'paginator' : 'incremental cursor';
    if (old) {
      // The old code wrote both into one dict, token then page size (start then end): the second replaced the first.
      const [kept, lost] = /page_size_option|end_time_option/.test(later.source) ? [later, earlier] : [earlier, later];
      return (
        `${head}. With the declared CDK ${declared} the ${what} wrote both into one mapping, so ${kept.source} silently replaced ${lost.source}` +
        `${earlier.component === 'paginator' ? " (the page token was never sent, so every page repeats the first request's value)" : ''}; ` +
        `from ${COMPONENT_OPTION_CHECK_ADDED_IN} on the CDK refuses to build this ${what}: ${refusal}`
      );
    }
    return `${head}; the CDK refuses to build this ${what}: ${refusal}`;
  }
  if (old) return `${head}; when both are sent the declared CDK ${declared} fails the request ("Duplicate keys found: …").`;
  return `${head}; when both are sent the CDK fails the request: ${refusal}`;
}

export const collidingInjectedKeys: Rule = {
  code: 'colliding-injected-keys',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'DeclarativeStream') continue;
      const seen = new Map<string, Injection>();
      for (const inj of injectionsOfStream(c.node, c.path)) {
        const id = `${inj.part}\u0000${inj.key}`;
        const first = seen.get(id);
        if (!first) {
          seen.set(id, inj);
          continue;
        }
        if (first.source === inj.source) continue;
        out.push({
          code: this.code,
          severity: 'warning',
          path: inj.path,
          anchor: inj.anchor,
          message: collisionMessage(first, inj, ctx.version),
          related: [{ message: `\`${inj.key}\` is also set here`, path: first.path }],
        });
      }
    }
    return out;
  },
};
