// RequestOption (airbyte_cdk/sources/declarative/requesters/request_option.py): where a value (API key, page token, page size) goes
// in a request, and the one helper that injects it into RequestParts. Used by authenticators,
// the requester and the paginators alike.
import type { RequestOptionCompat, RequestParts } from '../types';
import { isOlderThan } from '../schema/versions';
import { evalText } from '../interpolation';
import { configError } from '../errors';
import { pythonStr } from '../pythonText';
import { setValueAtPath } from '../safePath';
import { setOwn } from '../shared/safeObject';

export type InjectInto = 'request_parameter' | 'header' | 'body_data' | 'body_json';

const INJECT_TARGETS: readonly InjectInto[] = ['request_parameter', 'header', 'body_data', 'body_json'];

/** RequestOption.field_path arrived with CDK 6.18.0 (airbyte-python-cdk PR #201, January 2025). */
export const FIELD_PATH_ADDED_IN = '6.18.0';

/** The RequestParts member each injection target writes into. */
const PART_OF: Record<InjectInto, 'request_parameters' | 'request_headers' | 'request_body_data' | 'request_body_json'> = {
  request_parameter: 'request_parameters',
  header: 'request_headers',
  body_data: 'request_body_data',
  body_json: 'request_body_json',
};

/** A built RequestOption: its target, the rendered key (or nested key path) and an injector. */
export type RequestOption = {
  inject_into: InjectInto;
  /** The rendered field_name; null when field_path is used. */
  field_name: string | null;
  /** The rendered field_path segments (body_json only); null when field_name is used. */
  field_path: string[] | null;
  /** Writes `value` into `parts` at this option's place (headers get Python str()). */
  inject(parts: Omit<RequestParts, 'path'>, value: unknown): void;
  /** The key path this option writes, for collision checks at build time (e.g. `['data','id']`). */
  keyPath(): string[];
};

/**
 * Builds a RequestOption. `field_name` and each `field_path` segment are rendered with config and
 * `parameters` (§3.6). Throws a config error at build time for invalid combinations (§5.1). `compat`
 * carries the manifest's declared CDK version: before 6.18.0 a field_path next to a field_name is ignored.
 */
export function createRequestOption(
  component: object,
  config: object,
  parameters: object = {},
  compat: RequestOptionCompat = {},
): RequestOption {
  const c = component as Record<string, unknown>;
  if (!c || typeof c !== 'object') throw configError('RequestOption must be an object with inject_into and field_name.');
  const injectInto = c.inject_into;
  if (typeof injectInto !== 'string' || !INJECT_TARGETS.includes(injectInto as InjectInto)) {
    throw configError(`RequestOption.inject_into must be one of ${INJECT_TARGETS.join(', ')}; got ${JSON.stringify(injectInto ?? null)}.`);
  }
  const target = injectInto as InjectInto;
  // Python falsiness as in the reference factory: `field_path: []` (e.g. copied from $parameters, §1.3)
  // and `field_name: ""` count as absent.
  const hasName = c.field_name !== undefined && c.field_name !== null && c.field_name !== '';
  let hasPath = Array.isArray(c.field_path) ? c.field_path.length > 0 : c.field_path !== undefined && c.field_path !== null;
  // Spec §5.1: exactly one of field_name / field_path, and field_path only with body_json.
  if (!hasName && !hasPath) throw configError('RequestOption requires either field_name or field_path.');
  if (hasName && hasPath) {
    // CDKs before field_path existed never read it (often copied in by $parameters), so field_name wins there.
    const version = compat.manifestVersion;
    if (!version || !isOlderThan(version, FIELD_PATH_ADDED_IN)) {
      throw configError(
        `RequestOption accepts only one of field_name or field_path, not both (only manifests declaring a CDK version before ${FIELD_PATH_ADDED_IN}, which had no field_path, may carry both).`,
      );
    }
    compat.warn?.(
      `RequestOption sets both field_name and field_path: field_path is ignored and field_name is used, because field_path was added in CDK ${FIELD_PATH_ADDED_IN} and this manifest declares version ${version.join('.')}.`,
    );
    hasPath = false;
  }
  if (hasPath && target !== 'body_json') {
    throw configError(`RequestOption.field_path is only valid with inject_into: body_json (got ${target}); use field_name instead.`);
  }
  const context = { config, parameters };
  const render = (template: unknown): string => (typeof template === 'string' ? evalText(template, context) : pythonStr(template));

  let fieldName: string | null = null;
  let fieldPath: string[] | null = null;
  if (hasName) fieldName = render(c.field_name);
  else {
    if (!Array.isArray(c.field_path)) throw configError('RequestOption.field_path must be a list of strings.');
    fieldPath = c.field_path.map(render);
  }
  const path = fieldPath ?? [fieldName as string];

  return {
    inject_into: target,
    field_name: fieldName,
    field_path: fieldPath,
    keyPath: () => [...path],
    inject(parts, value) {
      injectValue(parts, target, path, value);
    },
  };
}

/**
 * Injects `value` into `parts` under `path` for the given target. Header values are converted with
 * Python str(); other values keep their type (§5.1). Intermediate JSON objects are created or reused.
 */
export function injectValue(parts: Omit<RequestParts, 'path'>, target: InjectInto, path: readonly string[], value: unknown): void {
  const bucket = parts[PART_OF[target]];
  if (target === 'header') {
    setOwn(bucket, path[0], pythonStr(value));
    return;
  }
  setValueAtPath(bucket, path, value, 'RequestOption field_path');
}
