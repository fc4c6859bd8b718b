// Rule `colliding-injected-keys`: two parts of a stream (requester mappings, authenticator,
// paginator, incremental cursor, partition routers) writing the same query parameter, header or form
// field. Spec §4.5: any duplicate key there is an error at request time, even with equal values.
// A warning, not an error: a template value that renders empty drops its key (§3.4), so whether both
// are sent is only known at run time, and older CDKs did not check the paginator's two options.
import type { JsonPath } from '../manifest/origins';
import type { Rule, RuleFinding } from './types';
import { componentAt, isMapping } from './types';

type Part = 'request_parameter' | 'header' | 'body_data';
type Injection = { part: Part; key: string; path: JsonPath; anchor: 'key' | 'value'; source: string };

const PART_WORDS: Record<Part, string> = { request_parameter: 'query parameter', header: 'header', body_data: 'form field' };

/** Injections of a RequestOption at `path` (skipped when its name is a template: it is only known at run time). */
function fromOption(option: unknown, path: JsonPath, source: string, out: Injection[]): void {
  if (!isMapping(option) || option.type !== 'RequestOption') return;
  const part = option.inject_into;
  const name = option.field_name;
  if ((part === 'request_parameter' || part === 'header' || part === 'body_data') && typeof name === 'string' && !name.includes('{{')) {
    out.push({ part, key: name, path: [...path, 'field_name'], anchor: 'value', source });
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
      if (typeof auth.header === 'string' && !auth.header.includes('{{')) out.push({ part: 'header', key: auth.header, path: [...path, 'header'], anchor: 'value', source });
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
    fromMapping(requester.request_parameters, 'request_parameter', [...q, 'request_parameters'], 'the requester\'s `request_parameters`', out);
    fromMapping(requester.request_headers, 'header', [...q, 'request_headers'], 'the requester\'s `request_headers`', out);
    fromMapping(requester.request_body_data, 'body_data', [...q, 'request_body_data'], 'the requester\'s `request_body_data`', out);
    const auth = componentAt(requester, 'authenticator');
    if (auth) fromAuthenticator(auth, [...q, 'authenticator'], out);
  }
  const paginator = componentAt(retriever, 'paginator');
  if (paginator?.type === 'DefaultPaginator') {
    fromOption(paginator.page_size_option, [...rPath, 'paginator', 'page_size_option'], 'the paginator\'s `page_size_option`', out);
    fromOption(paginator.page_token_option, [...rPath, 'paginator', 'page_token_option'], 'the paginator\'s `page_token_option`', out);
  }
  const cursor = componentAt(stream, 'incremental_sync');
  if (cursor?.type === 'DatetimeBasedCursor') {
    fromOption(cursor.start_time_option, [...path, 'incremental_sync', 'start_time_option'], 'the cursor\'s `start_time_option`', out);
    fromOption(cursor.end_time_option, [...path, 'incremental_sync', 'end_time_option'], 'the cursor\'s `end_time_option`', out);
  }
  const routers = Array.isArray(retriever.partition_router) ? retriever.partition_router : [retriever.partition_router];
  routers.forEach((router, i) => {
    if (!isMapping(router)) return;
    const base = Array.isArray(retriever.partition_router) ? [...rPath, 'partition_router', i] : [...rPath, 'partition_router'];
    if (router.type === 'ListPartitionRouter') fromOption(router.request_option, [...base, 'request_option'], 'the partition router\'s `request_option`', out);
    if (router.type === 'SubstreamPartitionRouter' && Array.isArray(router.parent_stream_configs)) {
      router.parent_stream_configs.forEach((p, j) => {
        if (isMapping(p)) fromOption(p.request_option, [...base, 'parent_stream_configs', j, 'request_option'], 'a parent stream\'s `request_option`', out);
      });
    }
  });
  return out;
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
          code: this.code, severity: 'warning', path: inj.path, anchor: inj.anchor,
          message: `The ${PART_WORDS[inj.part]} \`${inj.key}\` is set by ${inj.source} and by ${first.source}; when both are sent the CDK fails the request with a collision error.`,
          related: [{ message: `\`${inj.key}\` is also set here`, path: first.path }],
        });
      }
    }
    return out;
  },
};
