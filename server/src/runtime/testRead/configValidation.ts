// The reference validates the config against `spec.connection_specification` before a test read
// (its entrypoint's read → check_config_against_spec_or_exit, with jsonschema) and, on a violation,
// logs "Config validation error: <message>" as a config error and reads nothing. We do the same so an
// author sees in the editor what the Connector Builder would show. Messages follow jsonschema's
// wording (values as Python repr) and its choice of the most relevant error (best_match: the least
// deep error first, anyOf/oneOf last); formats are not checked (jsonschema does not by default).
import Ajv, { type ErrorObject } from 'ajv';
import { RE2JS } from 're2js';
import { pythonRepr } from '../pythonText';
import { schemaPatternEngine } from '../shared/schemaPatternEngine';

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }>();

function validatorFor(schema: object) {
  // The spec's patterns come from the manifest: they run on RE2, so no value can make them backtrack.
  ajv ??= new Ajv({
    allErrors: true,
    strict: false,
    validateFormats: false,
    unicodeRegExp: false,
    validateSchema: false,
    logger: false,
    code: { regExp: schemaPatternEngine(RE2JS) },
  });
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(stripIds(schema) as object);
    compiled.set(schema, v);
  }
  return v;
}

/** `$id` / `$schema` values from connector specs would clash between manifests inside one Ajv. */
function stripIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripIds);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== '$id' && k !== '$schema' && k !== 'id') out[k] = stripIds(v);
  return out;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** jsonschema's message for one violation. */
function messageFor(e: ErrorObject, config: unknown): string {
  const instance = valueAt(config, e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${pythonRepr(p.missingProperty)} is a required property`;
    case 'pattern':
      return `${pythonRepr(instance)} does not match ${pythonRepr(p.pattern)}`;
    case 'type':
      return `${pythonRepr(instance)} is not of type ${String(p.type)
        .split(',')
        .map((t) => pythonRepr(t))
        .join(', ')}`;
    case 'enum':
      return `${pythonRepr(instance)} is not one of ${pythonRepr(p.allowedValues)}`;
    case 'const':
      return `${pythonRepr(p.allowedValue)} was expected`;
    case 'minimum':
      return `${pythonRepr(instance)} is less than the minimum of ${pythonRepr(p.limit)}`;
    case 'maximum':
      return `${pythonRepr(instance)} is greater than the maximum of ${pythonRepr(p.limit)}`;
    case 'exclusiveMinimum':
      return `${pythonRepr(instance)} is less than or equal to the minimum of ${pythonRepr(p.limit)}`;
    case 'exclusiveMaximum':
      return `${pythonRepr(instance)} is greater than or equal to the maximum of ${pythonRepr(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? `${pythonRepr(instance)} should be non-empty` : `${pythonRepr(instance)} is too short`;
    case 'maxLength':
      return `${pythonRepr(instance)} is too long`;
    case 'minItems':
      return p.limit === 1 ? `${pythonRepr(instance)} should be non-empty` : `${pythonRepr(instance)} is too short`;
    case 'maxItems':
      return `${pythonRepr(instance)} is too long`;
    case 'additionalProperties':
      return `Additional properties are not allowed (${pythonRepr(p.additionalProperty)} was unexpected)`;
    case 'oneOf':
    case 'anyOf':
      return `${pythonRepr(instance)} is not valid under any of the given schemas`;
    default:
      return `${pythonRepr(instance)} is not valid: ${e.message ?? e.keyword}`;
  }
}

const WEAK = new Set(['anyOf', 'oneOf']);

/**
 * The reference's "Config validation error" message for this config, or null when the config
 * satisfies the spec (or the spec cannot be compiled: then the reference's own check would decide,
 * and we do not block a read on our inability to compile it).
 */
export function configValidationError(connectionSpecification: unknown, config: Record<string, unknown>): string | null {
  if (!connectionSpecification || typeof connectionSpecification !== 'object') return null;
  // Keys starting with "__" are internal flags the reference removes before validating.
  const userConfig = Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('__')));
  let validate;
  try {
    validate = validatorFor(connectionSpecification);
  } catch {
    return null;
  }
  if (validate(userConfig)) return null;
  // Errors inside a failed anyOf/oneOf branch are that branch's reasons, not errors of their own.
  const all = validate.errors ?? [];
  const branchErrors = all.filter((e) => WEAK.has(e.keyword));
  const errors = all.filter((e) => !branchErrors.some((b) => e.schemaPath.startsWith(`${b.schemaPath}/`)));
  const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1);
  const best = errors.slice().sort((a, b) => depth(a) - depth(b) || Number(WEAK.has(a.keyword)) - Number(WEAK.has(b.keyword)))[0];
  return best ? messageFor(best, userConfig) : null;
}

/**
 * The error jsonschema's `check_schema` raises for the spec itself before it validates the config (the
 * reference's test read logs it as an ERROR and reads nothing), for the one case real manifests have: a
 * `required` list that names a key twice (source-hellobaton: "['api_key', 'api_key', 'company'] has
 * non-unique elements", the metaschema's `uniqueItems`). Other metaschema violations are not checked.
 */
export function specSchemaError(connectionSpecification: unknown): string | null {
  const seen = new Set<unknown>();
  const walk = (node: unknown): string | null => {
    if (!node || typeof node !== 'object' || seen.has(node)) return null;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) {
        const e = walk(v);
        if (e) return e;
      }
      return null;
    }
    const required = (node as Record<string, unknown>).required;
    if (Array.isArray(required) && new Set(required.map((v) => JSON.stringify(v))).size !== required.length) {
      return `${pythonRepr(required)} has non-unique elements`;
    }
    for (const [k, v] of Object.entries(node)) {
      // Values of these keywords are data, not schemas.
      if (k === 'enum' || k === 'const' || k === 'examples' || k === 'default' || k === 'required') continue;
      const e = walk(v);
      if (e) return e;
    }
    return null;
  };
  return walk(connectionSpecification);
}
