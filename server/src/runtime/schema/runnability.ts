// What a test read does with each component type of the catalog that it does not simply run: either it
// is not runnable here (the read of a stream that uses it stops and says why; the editor marks it) or
// it has no effect on a test read (accepted; the editor says so). Every other catalog type runs, and
// test/unit/golden/catalogCoverage.test.ts holds the table to that: each one is read through by a
// fixture. Custom* components are Python code (rule custom-component).

/** `not_runnable`: a test read of a stream using it stops with `reason`. `no_effect`: it is accepted and changes nothing a test read shows. */
export type Runnability = { kind: 'not_runnable' | 'no_effect'; reason: string; onlyWithState?: boolean };

/** By component type. */
export const COMPONENT_RUNNABILITY: Readonly<Record<string, Runnability>> = {
  ResponseToFileExtractor: {
    kind: 'not_runnable',
    reason: 'ResponseToFileExtractor parses CSV downloads with pandas in the Python CDK; this runtime does not run it',
  },
  KeysToSnakeCase: {
    kind: 'not_runnable',
    reason: 'KeysToSnakeCase (transliterating and splitting keys as the Python CDK does) is not run by this runtime yet',
  },
  FlattenFields: { kind: 'not_runnable', reason: 'FlattenFields is not run by this runtime yet (DpathFlattenFields is)' },
  LegacyToPerPartitionStateMigration: {
    kind: 'not_runnable',
    onlyWithState: true,
    reason: "state migrations are not applied to a test read's input state by this runtime",
  },
  ConcurrencyLevel: { kind: 'no_effect', reason: 'a test read runs one worker, as the Connector Builder does' },
  StreamGroup: { kind: 'no_effect', reason: 'stream groups only keep syncs of other streams from running at the same time' },
  BlockSimultaneousSyncsAction: {
    kind: 'no_effect',
    reason: 'stream groups only keep syncs of other streams from running at the same time',
  },
  AuthFlow: { kind: 'no_effect', reason: 'advanced_auth drives the "Authenticate with OAuth" flow, not a read' },
  OAuthConfigSpecification: { kind: 'no_effect', reason: 'advanced_auth drives the "Authenticate with OAuth" flow, not a read' },
  TokenQuota: {
    kind: 'no_effect',
    reason: 'token quotas decide when to rotate to the next token; a test read sends too few requests to exhaust one',
  },
  QuotaStatusSource: {
    kind: 'no_effect',
    reason: 'token quotas decide when to rotate to the next token; a test read sends too few requests to exhaust one',
  },
  SchemaTypeIdentifier: {
    kind: 'no_effect',
    reason: 'a dynamic schema only describes the records; a test read infers the schema from the records it reads',
  },
  TypesMap: {
    kind: 'no_effect',
    reason: 'a dynamic schema only describes the records; a test read infers the schema from the records it reads',
  },
  ComplexFieldType: {
    kind: 'no_effect',
    reason: 'a dynamic schema only describes the records; a test read infers the schema from the records it reads',
  },
};

/** By `Type.field`: fields that change what a run does in a way this runtime does not reproduce, or that do not apply to a test read. */
export const FIELD_RUNNABILITY: Readonly<Record<string, Runnability>> = {
  'AsyncRetriever.failed_retry_wait_time_in_seconds': {
    kind: 'no_effect',
    reason: 'a test read does not retry failed jobs, so the cooldown between retries never applies',
  },
};

/** The first component or field of `node` (a stream, walked deeply) that a test read cannot run, with its JSON path; null when it runs. */
export function notRunnableIn(
  node: unknown,
  hasState: boolean,
  path: (string | number)[] = [],
): { path: (string | number)[]; type: string; reason: string } | null {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const hit = notRunnableIn(node[i], hasState, [...path, i]);
      if (hit) return hit;
    }
    return null;
  }
  if (!node || typeof node !== 'object') return null;
  const obj = node as Record<string, unknown>;
  const type = typeof obj.type === 'string' ? obj.type : null;
  if (type) {
    const r = COMPONENT_RUNNABILITY[type];
    if (r?.kind === 'not_runnable' && (!r.onlyWithState || hasState)) return { path, type, reason: r.reason };
    for (const key of Object.keys(obj)) {
      const f = FIELD_RUNNABILITY[`${type}.${key}`];
      if (f?.kind === 'not_runnable' && (!f.onlyWithState || hasState) && obj[key] !== undefined && obj[key] !== null && obj[key] !== '')
        return { path: [...path, key], type: `${type}.${key}`, reason: f.reason };
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$parameters') continue;
    const hit = notRunnableIn(v, hasState, [...path, k]);
    if (hit) return hit;
  }
  return null;
}
