// Page size fields of the pagination strategies (§7.3-§7.5): an integer, a digit string, or a template
// that must evaluate to an integer.
import type { RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalString, type TemplateContext } from '../http/interpolatedValues';
import { pythonStr } from '../pythonText';

/** Evaluates a page size; throws a config error naming the value and its type when it is not an int. */
export function evalPageSize(raw: unknown, ctx: TemplateContext, owner: string, env?: RuntimeEnv): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'number') return requireInt(raw, raw, owner);
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  const v = evalString(raw, ctx, env);
  return requireInt(v, raw, owner);
}

function requireInt(v: unknown, raw: unknown, owner: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  const type = v === null ? 'None' : Array.isArray(v) ? 'list' : typeof v === 'number' ? 'float' : typeof v === 'string' ? 'str' : typeof v;
  // The reference's wording first ("50.5 is of type <class 'float'>. Expected <class 'int'>"), then where it came from.
  throw configError(
    `${pythonStr(v)} is of type <class '${type === 'None' ? 'NoneType' : type}'>. Expected <class 'int'>. (${owner}.page_size: ${JSON.stringify(raw)} evaluated to ${JSON.stringify(v)} of type ${type}; expected type int.)`,
  );
}
