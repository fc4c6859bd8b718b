// Turns ajv errors on one component into readable, located problems: one per offending value,
// `anyOf` noise collapsed, required → the component's key, type/enum → the value.
import type { ErrorObject } from 'ajv';
import type { JsonPath } from '../manifest/origins';
import { closestMatch } from '../suggest';
import type { ProblemFix } from '../problems';

/** A schema finding before it is located: the component-relative path and where to anchor it. */
export type SchemaFinding = {
  /** Path of the offending value, relative to the component. */
  path: JsonPath;
  /** `key`: the mapping key of `path`; `value`: the value itself; `component`: the component's own key. */
  anchor: 'key' | 'value' | 'component';
  message: string;
  fix?: ProblemFix;
};

function pathOf(instancePath: string): JsonPath {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => {
      const k = s.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(k) ? Number(k) : k;
    });
}

function label(path: JsonPath): string {
  return path.length === 0
    ? 'the component'
    : '`' +
        path
          .map((s) => (typeof s === 'number' ? `[${s}]` : s))
          .join('.')
          .replace(/\.\[/g, '[') +
        '`';
}

/** A short name of a JSON value's type, as users read it. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string "${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  return `${typeof v === 'number' && Number.isInteger(v) ? 'the integer' : `the ${typeof v}`} ${String(v)}`;
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** Describes what a schema accepts ("a string or a list of strings"). */
export function describeSchema(s: unknown): string {
  if (!s || typeof s !== 'object') return 'any value';
  const o = s as Record<string, unknown>;
  if (Array.isArray(o.anyOf)) return [...new Set(o.anyOf.map(describeSchema))].join(' or ');
  if (Array.isArray(o.enum)) return 'one of ' + o.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (Array.isArray(o.type)) return o.type.map((t) => TYPE_WORDS[t as string] ?? String(t)).join(' or ');
  if (o.type === 'array') return o.items ? `a list of ${describeSchema(o.items).replace(/^an? /, '')}s`.replace(/ys$/, 'ies') : 'a list';
  if (typeof o.type === 'string') return TYPE_WORDS[o.type] ?? o.type;
  return 'any value';
}

const PRIORITY: Record<string, number> = { required: 0, enum: 1, anyOf: 2, type: 3 };

/** Collapses the ajv errors of one component into findings. `componentType` names the component in messages. */
export function findingsFromAjv(errors: readonly ErrorObject[], componentType: string, value: unknown): SchemaFinding[] {
  // An anyOf error makes every error below its path branch noise.
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath);
  const kept = errors.filter(
    (e) => e.keyword === 'anyOf' || !anyOfPaths.some((p) => e.instancePath === p || e.instancePath.startsWith(p + '/')),
  );
  const best = new Map<string, ErrorObject>();
  const findings: SchemaFinding[] = [];
  for (const e of kept) {
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const where = pathOf(e.instancePath);
      findings.push({
        path: where,
        anchor: where.length ? 'key' : 'component',
        message: `${componentType}: missing required field \`${missing}\`${where.length ? ` in ${label(where)}` : ''}.`,
        // Added under the component's own key; a field missing deeper has no key of its own to go under.
        ...(where.length ? {} : { fix: { kind: 'add-field', component: componentType, field: missing } }),
      });
      continue;
    }
    const prev = best.get(e.instancePath);
    if (!prev || (PRIORITY[e.keyword] ?? 9) < (PRIORITY[prev.keyword] ?? 9)) best.set(e.instancePath, e);
  }
  for (const [instancePath, e] of best) {
    const path = pathOf(instancePath);
    const actual = valueAt(value, path);
    if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const hint = typeof actual === 'string' ? closestMatch(actual, allowed) : undefined;
      findings.push({
        path,
        anchor: 'value',
        message: `${componentType}: ${label(path)} must be one of ${allowed.map((a) => `\`${a}\``).join(', ')}, not ${describeValue(actual)}.${hint ? ` Did you mean \`${hint}\`?` : ''}`,
        ...(hint ? { fix: { kind: 'replace', text: hint } } : {}),
      });
    } else if (e.keyword === 'type' || e.keyword === 'anyOf') {
      findings.push({
        path,
        anchor: 'value',
        message: `${componentType}: ${label(path)} must be ${describeSchema(e.parentSchema)}, not ${describeValue(actual)}.`,
      });
    } else {
      findings.push({ path, anchor: 'value', message: `${componentType}: ${label(path)} ${e.message ?? 'is invalid'}.` });
    }
  }
  return findings;
}

function valueAt(v: unknown, path: JsonPath): unknown {
  let cur = v;
  for (const k of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[k] : undefined;
  return cur;
}
