// Behaviour changes of the Airbyte CDK between two versions that touch a given manifest: what a bump of
// `version:` changes for the components and fields this manifest uses. Facts only, each from the CDK's
// migration guide (cdk-migrations.md of airbyte-python-cdk), its source at the pinned commit, or the
// catalog's version data (`addedIn` / `removedIn`); each entry says where it comes from.
import { compareVersions, parseVersion, type CdkVersion } from './versions';

type Obj = Record<string, unknown>;

/** One behaviour change of one CDK version, with the places of the manifest it touches. */
export type TouchedBehaviourChange = {
  /** The CDK version that changed the behaviour. */
  version: string;
  /** What changed, in one sentence. */
  summary: string;
  /** Where the fact comes from. */
  source: string;
  /** The places of the manifest it touches (a stream and a component, or a template). */
  where: string[];
};

type BehaviourChange = Omit<TouchedBehaviourChange, 'where'> & { touches(manifest: Obj): string[] };

/** A component with the name of the stream it belongs to (null outside `streams` / `dynamic_streams`). */
type Visited = { node: Obj; stream: string | null; key: string | null };

function visit(manifest: Obj): Visited[] {
  const out: Visited[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, stream: string | null, key: string | null) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const v of value) walk(v, stream, key);
      return;
    }
    const node = value as Obj;
    const name =
      (node.type === 'DeclarativeStream' || node.type === 'StateDelegatingStream') && typeof node.name === 'string' ? node.name : null;
    // A parent stream inside a router is still the child's component for the reader of the list.
    const here = stream ?? name;
    out.push({ node, stream: here, key });
    for (const [k, v] of Object.entries(node)) walk(v, here, k);
  };
  walk(manifest.streams, null, 'streams');
  walk(manifest.dynamic_streams, null, 'dynamic_streams');
  walk(manifest.check, null, 'check');
  walk(manifest.spec, null, 'spec');
  return out;
}

const place = (v: Visited, what: string) => (v.stream ? `stream \`${v.stream}\`: ${what}` : what);
const unique = (list: string[]) => [...new Set(list)];

function templatesReading(manifest: Obj, variable: RegExp): string[] {
  const out: string[] = [];
  for (const v of visit(manifest)) {
    // Plain mappings (request_parameters, …) are read with the component that holds them.
    if (typeof v.node.type !== 'string') continue;
    for (const [k, value] of Object.entries(v.node)) {
      const texts =
        typeof value === 'string'
          ? [value]
          : value && typeof value === 'object' && !Array.isArray(value) && !('type' in (value as Obj))
            ? Object.values(value as Obj).filter((x): x is string => typeof x === 'string')
            : [];
      if (texts.some((t) => /\{\{|\{%/.test(t) && variable.test(t))) out.push(place(v, `${String(v.node.type ?? 'component')}.${k}`));
    }
  }
  return unique(out);
}

const sameKey = (a: unknown, b: unknown) => {
  const x = a as Obj | undefined;
  const y = b as Obj | undefined;
  if (!x || !y || typeof x !== 'object' || typeof y !== 'object') return false;
  if (x.type === 'RequestPath' || y.type === 'RequestPath') return false;
  return x.inject_into === y.inject_into && typeof x.field_name === 'string' && x.field_name === y.field_name;
};

const isCustom = (node: Obj) => typeof node.class_name === 'string' || /^Custom/.test(String(node.type ?? ''));

/** Oldest first. */
const CHANGES: BehaviourChange[] = [
  {
    version: '5.0.0',
    summary:
      'The protocol models are Python dataclasses instead of Pydantic models: custom Python components that build or read `airbyte_cdk.models` objects must use the serializers.',
    source: 'CDK migration guide, "Upgrading to 5.0.0"',
    touches: (m) =>
      unique(
        visit(m)
          .filter((v) => isCustom(v.node))
          .map((v) => place(v, `${String(v.node.type)} (${String(v.node.class_name ?? '')})`)),
      ),
  },
  {
    version: '6.0.0',
    summary:
      "Incremental streams with a `DatetimeBasedCursor` are read by the Concurrent CDK: date windows are units of work that may be read in any order, and the state is the concurrent cursor's; a stream whose requester, record filter or added fields read `stream_state` in a windowed cursor stays synchronous.",
    source: 'CDK migration guide, "Upgrading to 6.0.0"',
    touches: (m) =>
      unique(
        visit(m)
          .filter((v) => v.node.type === 'DatetimeBasedCursor' && v.key === 'incremental_sync')
          .map((v) => place(v, 'DatetimeBasedCursor')),
      ),
  },
  {
    version: '6.18.0',
    summary: '`RequestOption.field_path` is honoured (a nested key of a JSON body); before, it was ignored and only `field_name` was used.',
    source: "airbyte-python-cdk PR #201; the catalog's RequestOption.field_path",
    touches: (m) =>
      unique(
        visit(m)
          .filter((v) => v.node.type === 'RequestOption' && v.node.field_path !== undefined)
          .map((v) => place(v, `RequestOption.field_path (${v.key ?? 'option'})`)),
      ),
  },
  {
    version: '6.28.0',
    summary: 'Pendulum is no longer installed with the CDK: custom Python components that import it must declare it as a dependency.',
    source: 'CDK migration guide, "Upgrading to 6.28.0"',
    touches: (m) =>
      unique(
        visit(m)
          .filter((v) => isCustom(v.node))
          .map((v) => place(v, `${String(v.node.type)} (${String(v.node.class_name ?? '')})`)),
      ),
  },
  {
    version: '6.33.7',
    summary:
      "Two request options of one component that write the same key (a paginator's page size and page token, a cursor's start and end) make the component fail when it is built; before, the second silently replaced the first.",
    source: "airbyte-python-cdk PR #328; the editor's colliding-injected-keys rule",
    touches: (m) =>
      unique(
        visit(m).flatMap((v) => {
          if (v.node.type === 'DefaultPaginator' && sameKey(v.node.page_size_option, v.node.page_token_option))
            return [
              place(
                v,
                `DefaultPaginator: page_size_option and page_token_option both write \`${String((v.node.page_size_option as Obj).field_name)}\``,
              ),
            ];
          if (v.node.type === 'DatetimeBasedCursor' && sameKey(v.node.start_time_option, v.node.end_time_option))
            return [
              place(
                v,
                `DatetimeBasedCursor: start_time_option and end_time_option both write \`${String((v.node.start_time_option as Obj).field_name)}\``,
              ),
            ];
          return [];
        }),
      ),
  },
  {
    version: '6.34.0',
    summary:
      '`stream_state` is no longer in the template context (HttpRequester request parameters, headers and bodies, RecordFilter, AddFields): a template that reads it fails; read `stream_interval` instead.',
    source: 'CDK migration guide, "Upgrading to 6.34.0"',
    touches: (m) => templatesReading(m, /\bstream_state\b/),
  },
  {
    version: '7.0.0',
    summary:
      '`CustomIncrementalSync` is removed (no migration path); custom retrievers no longer provide `state` or `stream_slices`, and custom partition routers see parent streams as Concurrent CDK streams.',
    source: 'CDK migration guide, "Upgrading to 7.0.0"; the catalog marks CustomIncrementalSync removed in 7.0.0',
    touches: (m) =>
      unique(
        visit(m)
          .filter(
            (v) => v.node.type === 'CustomIncrementalSync' || v.node.type === 'CustomRetriever' || v.node.type === 'CustomPartitionRouter',
          )
          .map((v) => place(v, `${String(v.node.type)} (${String(v.node.class_name ?? '')})`)),
      ),
  },
];

/**
 * The behaviour changes after `declared` up to and including `target` that touch the (resolved) manifest,
 * oldest first. Nothing when either version cannot be read or the target is not newer.
 */
export function behaviourChangesBetween(manifest: unknown, declared: unknown, target: string): TouchedBehaviourChange[] {
  const from = parseVersion(declared);
  const to = parseVersion(target);
  if (!from || !to || compareVersions(from, to) >= 0 || !manifest || typeof manifest !== 'object') return [];
  const inRange = (v: CdkVersion) => compareVersions(v, from) > 0 && compareVersions(v, to) <= 0;
  return CHANGES.filter((c) => inRange(parseVersion(c.version)!))
    .map((c) => ({ version: c.version, summary: c.summary, source: c.source, where: c.touches(manifest as Obj) }))
    .filter((c) => c.where.length > 0);
}

/** Every behaviour change the table knows (for documentation and tests). */
export function knownBehaviourChanges(): { version: string; summary: string; source: string }[] {
  return CHANGES.map(({ version, summary, source }) => ({ version, summary, source }));
}
