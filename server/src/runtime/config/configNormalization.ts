// The spec's `config_normalization_rules` (CDK 6.x+): config migrations, then config transformations
// (ConfigAddFields, ConfigRemapField, ConfigRemoveFields), then validations (DpathValidator /
// PredicateValidator with ValidateAdheresToSchema). The reference applies the first two to the user's
// config when the source is built, and every read, check and stream listing uses the result; the
// validations run each time the streams are built. No I/O here.
import Ajv from 'ajv';
import { configError, RuntimeError } from '../errors';
import { evalBoolean, evalString, pythonStr } from '../http/interpolatedValues';
import type { RuntimeEnv } from '../types';

type Obj = Record<string, unknown>;

/** The config after migrations and transformations, and whether a migration changed it (the reference then emits a CONTROL message). */
export type NormalizedConfig = { config: Obj; migrated: boolean };

function rulesOf(spec: unknown): Obj | null {
  const rules = (spec as Obj | undefined)?.config_normalization_rules;
  return rules && typeof rules === 'object' ? (rules as Obj) : null;
}

/**
 * Applies the spec's config migrations, then its transformations, to a copy of `config`. Returns
 * `config` itself when the spec has no rules. Throws RuntimeError (config_error) on a rule the
 * reference would refuse to build (empty path, unknown transformation type).
 */
export function normalizeConfig(spec: unknown, config: Obj, env?: RuntimeEnv): NormalizedConfig {
  const rules = rulesOf(spec);
  if (!rules) return { config, migrated: false };
  const out = structuredClone(config);
  for (const migration of list(rules.config_migrations)) {
    for (const t of list((migration as Obj).transformations)) applyTransformation(t as Obj, out, env);
  }
  const migrated = JSON.stringify(out) !== JSON.stringify(config);
  for (const t of list(rules.transformations)) applyTransformation(t as Obj, out, env);
  return { config: out, migrated };
}

/**
 * Runs the spec's config validations on `config` (the reference's `Spec.validate_config`). Returns
 * the error message the reference raises (a ValueError's text), or null when every validation passes.
 */
export function configRuleViolation(spec: unknown, config: Obj, env?: RuntimeEnv): string | null {
  const rules = rulesOf(spec);
  if (!rules) return null;
  for (const v of list(rules.validations)) {
    const validator = v as Obj;
    try {
      if (validator.type === 'DpathValidator') {
        // The reference renders each path segment with an empty context (no config).
        const path = list(validator.field_path).map((p) => pythonStr(evalString(p, {}, env)));
        if (path.length === 0) return 'Field path is empty';
        const values = path.includes('*')
          ? globValues(config, path)
          : (() => {
              const got = getPath(config, path);
              return got.found ? [got.value] : [];
            })();
        for (const value of values) validateStrategy(validator.validation_strategy as Obj, value);
      } else if (validator.type === 'PredicateValidator') {
        // Reference quirk: Spec.validate_config calls `validator.validate(config)` on every validator, and
        // PredicateValidator.validate takes no argument, so a PredicateValidator here fails every read.
        return 'PredicateValidator.validate() takes 1 positional argument but 2 were given';
      } else if (validator.type === 'CustomValidator' || validator.type === 'CustomValidationStrategy') {
        throw configError(`${String(validator.type)} runs Python code and is not runnable outside the Python CDK.`);
      }
    } catch (e) {
      if (e instanceof RuntimeError) throw e;
      return (e as Error).message;
    }
  }
  return null;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function applyTransformation(t: Obj, config: Obj, env?: RuntimeEnv): void {
  switch (t.type) {
    case 'ConfigAddFields': {
      const condition = typeof t.condition === 'string' ? t.condition : '';
      for (const f of list(t.fields) as Obj[]) {
        const path = list(f.path).map(String);
        if (path.length === 0) throw configError('ConfigAddFields: a field needs a non-empty path.');
        if (typeof f.value !== 'string')
          throw configError(`ConfigAddFields: the value of ${JSON.stringify(path)} must be a string (a template or a constant).`);
        // InterpolatedString.eval(config): the template sees `config` (and the config's keys are not top-level names).
        const value = castTo(evalString(f.value, { config }, env), f.value_type as string | undefined);
        if (condition && !evalBoolean(condition, { config, value, path }, env)) continue;
        newPath(config, path, value);
      }
      return;
    }
    case 'ConfigRemapField': {
      const fieldPath = list(t.field_path).map((p) => pythonStr(evalString(p, { config }, env)));
      if (fieldPath.length === 0) throw configError('ConfigRemapField: field_path cannot be empty.');
      let current: unknown = config;
      for (const seg of fieldPath.slice(0, -1)) {
        if (!isObj(current) || !(seg in current)) return;
        current = current[seg];
        if (!isObj(current)) return;
      }
      const mapping = isObj(t.map)
        ? evalMappingKeysAndValues(t.map, isObj(t.config) && Object.keys(t.config).length ? t.config : config, env)
        : {};
      const name = fieldPath[fieldPath.length - 1];
      const target = current as Obj;
      // Python's `value in mapping` compares keys by equality: a JSON key is always a string.
      if (name in target && typeof target[name] === 'string' && Object.hasOwn(mapping, target[name] as string)) {
        target[name] = mapping[target[name] as string];
      }
      return;
    }
    case 'ConfigRemoveFields': {
      const condition = typeof t.condition === 'string' ? t.condition : '';
      if (condition && !evalBoolean(condition, { config }, env)) return;
      for (const pointer of list(t.field_pointers)) deletePath(config, list(pointer).map(String));
      return;
    }
    case 'CustomConfigTransformation':
      throw configError('CustomConfigTransformation runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(`Unknown config transformation type ${JSON.stringify(t.type)}.`);
  }
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** InterpolatedMapping.eval(config=…): keys and values rendered with `config` in scope. */
function evalMappingKeysAndValues(map: Obj, config: unknown, env?: RuntimeEnv): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(map)) out[pythonStr(evalString(k, { config }, env))] = evalString(v, { config }, env);
  return out;
}

/** `valid_types` of InterpolatedString.eval: the rendered value is converted to the declared type. */
function castTo(v: unknown, type: string | undefined): unknown {
  switch (type) {
    case 'string':
      return pythonStr(v);
    case 'integer': {
      const n = Number(v);
      return Number.isFinite(n) ? Math.trunc(n) : v;
    }
    case 'number': {
      const n = Number(v);
      return Number.isFinite(n) ? n : v;
    }
    case 'boolean':
      return typeof v === 'string' ? v.toLowerCase() === 'true' : Boolean(v);
    default:
      return v;
  }
}

/** dpath.new: creates every missing parent as a mapping and sets the last key. */
function newPath(target: Obj, path: string[], value: unknown): void {
  let cur: Obj = target;
  for (const seg of path.slice(0, -1)) {
    if (!isObj(cur[seg])) cur[seg] = {};
    cur = cur[seg] as Obj;
  }
  cur[path[path.length - 1]] = value;
}

/** dpath.delete on an exact path; a missing path is not an error (the reference catches PathNotFound). */
function deletePath(target: Obj, path: string[]): void {
  let cur: unknown = target;
  for (const seg of path.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObj(cur)) cur = cur[seg];
    else return;
  }
  const last = path[path.length - 1];
  // Spec of ConfigRemoveFields: an item of a list is set to None rather than removed.
  if (Array.isArray(cur)) {
    const i = Number(last);
    if (Number.isInteger(i) && i >= 0 && i < cur.length) cur[i] = null;
  } else if (isObj(cur)) delete cur[last];
}

function getPath(root: unknown, path: string[]): { found: boolean; value?: unknown } {
  let cur = root;
  for (const seg of path) {
    if (Array.isArray(cur) && /^\d+$/.test(seg) && Number(seg) < cur.length) cur = cur[Number(seg)];
    else if (isObj(cur) && seg in cur) cur = cur[seg];
    else return { found: false };
  }
  return { found: true, value: cur };
}

function globValues(root: unknown, path: string[]): unknown[] {
  if (path.length === 0) return [root];
  const [seg, ...rest] = path;
  if (Array.isArray(root)) return (seg === '*' ? root : [root[Number(seg)]]).flatMap((v) => globValues(v, rest));
  if (isObj(root)) return (seg === '*' ? Object.values(root) : seg in root ? [root[seg]] : []).flatMap((v) => globValues(v, rest));
  return [];
}

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });

/** ValidateAdheresToSchema: a string is parsed as JSON first; errors read as the reference's ValueError texts. */
function validateStrategy(strategy: Obj | undefined, value: unknown): void {
  if (!strategy) return;
  if (strategy.type !== 'ValidateAdheresToSchema')
    throw configError(`${String(strategy.type)} is not a validation strategy this runtime runs.`);
  let instance = value;
  if (typeof instance === 'string') {
    try {
      instance = JSON.parse(instance);
    } catch {
      throw new Error(`Invalid JSON string: ${instance as string}`);
    }
  }
  const schema = typeof strategy.base_schema === 'string' ? JSON.parse(strategy.base_schema) : strategy.base_schema;
  const validate = ajv.compile(schema as object);
  if (!validate(instance)) {
    const e = validate.errors?.[0];
    throw new Error(`JSON schema validation error: ${e ? jsonschemaMessage(e, instance) : 'invalid'}`);
  }
}

/** The first words of python-jsonschema's message for the common keywords. */
function jsonschemaMessage(e: { keyword: string; params: Record<string, unknown>; instancePath: string }, root: unknown): string {
  const at = e.instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((v, k) => (v as Obj)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  switch (e.keyword) {
    case 'required':
      return `'${String(e.params.missingProperty)}' is a required property`;
    case 'type':
      return `${reprOf(at)} is not of type '${String(e.params.type)}'`;
    case 'enum':
      return `${reprOf(at)} is not one of ${reprOf(e.params.allowedValues)}`;
    default:
      return `${reprOf(at)} is not valid under the schema (${e.keyword})`;
  }
}

function reprOf(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return `[${v.map(reprOf).join(', ')}]`;
  if (isObj(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `'${k}': ${reprOf(x)}`)
      .join(', ')}}`;
  return String(v);
}
