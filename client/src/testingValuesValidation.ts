// Validates testing values against the manifest's spec.connection_specification (a JSON schema) with
// ajv, and turns ajv's errors into field paths and readable messages for the form. Never echoes values.
import Ajv, { type ErrorObject } from 'ajv';
import { RE2JS } from 're2js';
import { schemaPatternEngine } from '../../server/src/runtime/shared/schemaPatternEngine';
import { fieldTitle } from './specTitles';

export { fieldTitle } from './specTitles';

/**
 * A problem with one field: `path` is a JSON pointer into the config ('' for the whole config) that
 * places the message in the form; `title` names the field the way the form shows it (its spec titles).
 */
export type FieldProblem = { path: string; message: string; title: string };

// Connector specs use a handful of formats; these are checked, any other format is accepted as is.
// `verbose` gives each error its schema, so a pattern is explained by its `pattern_descriptor`.
// The spec's patterns come from the manifest: they run on RE2 (linear time), so a backtracking
// pattern cannot freeze the extension host on Save or Import.
const ajv = new Ajv({ allErrors: true, strict: false, logger: false, verbose: true, code: { regExp: schemaPatternEngine(RE2JS) } });
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/);
ajv.addFormat('email', /^[^@\s]+@[^@\s]+$/);
ajv.addFormat('uri', /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/);
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

type Located = Omit<FieldProblem, 'title'>;

function describe(e: ErrorObject): Located {
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return { path: `${e.instancePath}/${missing}`, message: 'is required.' };
  }
  if (e.keyword === 'pattern') {
    const descriptor = (e.parentSchema as { pattern_descriptor?: unknown } | undefined)?.pattern_descriptor;
    if (typeof descriptor === 'string' && descriptor.trim())
      return { path: e.instancePath, message: `must be written as ${descriptor.trim()}.` };
    return { path: e.instancePath, message: `does not match the expected pattern ${(e.params as { pattern: string }).pattern}.` };
  }
  if (e.keyword === 'format')
    return {
      path: e.instancePath,
      message: `must be a valid ${(e.params as { format: string }).format}${(e.params as { format: string }).format === 'date' ? ' (YYYY-MM-DD)' : ''}.`,
    };
  if (e.keyword === 'enum')
    return { path: e.instancePath, message: `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}.` };
  return { path: e.instancePath, message: `${e.message ?? 'is invalid'}.` };
}

/** Problems of `values` under `spec`; empty when valid or when there is no usable spec. */
export function validateTestingValues(spec: Record<string, unknown> | null, values: unknown): FieldProblem[] {
  if (!values || typeof values !== 'object' || Array.isArray(values))
    return [{ path: '', message: 'Testing values must be a JSON object.', title: 'The testing values' }];
  if (!spec || typeof spec !== 'object') return [];
  let validate = compiled.get(spec);
  try {
    if (!validate) {
      validate = ajv.compile(spec);
      compiled.set(spec, validate);
    }
  } catch (e) {
    return [
      {
        path: '',
        message: `The manifest's connection_specification is not a valid JSON schema: ${(e as Error).message}`,
        title: 'The testing values',
      },
    ];
  }
  if (validate(values)) return [];
  // A failed oneOf reports the errors of every branch; keep only the branch that came closest (fewest
  // errors), one message per field, and drop the oneOf summary itself when branch errors remain.
  const errs = closestBranches(validate.errors ?? []);
  const seen = new Set<string>();
  const out: FieldProblem[] = [];
  for (const e of errs) {
    if ((e.keyword === 'oneOf' || e.keyword === 'anyOf') && errs.length > 1) continue;
    const p = describe(e);
    if (!seen.has(p.path)) {
      seen.add(p.path);
      out.push({ ...p, title: fieldTitle(spec, p.path) });
    }
  }
  return out;
}

function closestBranches(errors: ErrorObject[]): ErrorObject[] {
  const branchOf = (e: ErrorObject) => /^(.*\/(?:oneOf|anyOf))\/(\d+)\//.exec(e.schemaPath);
  const counts = new Map<string, Map<string, number>>();
  for (const e of errors) {
    const m = branchOf(e);
    if (!m) continue;
    const perBranch = counts.get(m[1]) ?? new Map<string, number>();
    perBranch.set(m[2], (perBranch.get(m[2]) ?? 0) + 1);
    counts.set(m[1], perBranch);
  }
  const best = new Map<string, string>();
  for (const [site, perBranch] of counts) best.set(site, [...perBranch].sort((a, b) => a[1] - b[1])[0][0]);
  return errors.filter((e) => {
    const m = branchOf(e);
    return !m || best.get(m[1]) === m[2];
  });
}
