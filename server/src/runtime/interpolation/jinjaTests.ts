// Jinja2's built-in tests (`x is none`, `x is defined`, `x is number`, …) with Python semantics.
import { compareOp } from './operators';
import { PyFloat, PyFunction, PyTuple, TemplateValueError, Undefined, isDict, numberOf } from './values';

type Test = (value: unknown, args: unknown[]) => boolean;

function intOf(v: unknown, test: string): number {
  const n = numberOf(v);
  if (n === undefined) throw new TemplateValueError(`test '${test}' needs a number`);
  return n;
}

const cmp =
  (op: string): Test =>
  (v, a) =>
    compareOp(op, v, a[0]);

/** Built-in Jinja tests keyed by name (aliases included). */
export const JINJA_TESTS: Record<string, Test> = {
  defined: (v) => !(v instanceof Undefined),
  undefined: (v) => v instanceof Undefined,
  none: (v) => v === null,
  true: (v) => v === true,
  false: (v) => v === false,
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat,
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v)),
  string: (v) => typeof v === 'string',
  mapping: (v) => isDict(v),
  sequence: (v) => typeof v === 'string' || Array.isArray(v) || v instanceof PyTuple || isDict(v),
  iterable: (v) =>
    typeof v === 'string' || Array.isArray(v) || v instanceof PyTuple || v instanceof Set || isDict(v) || v instanceof Undefined,
  callable: (v) => v instanceof PyFunction,
  odd: (v) => Math.abs(intOf(v, 'odd') % 2) === 1,
  even: (v) => intOf(v, 'even') % 2 === 0,
  divisibleby: (v, a) => intOf(v, 'divisibleby') % intOf(a[0], 'divisibleby') === 0,
  lower: (v) => typeof v === 'string' && v === v.toLowerCase(),
  upper: (v) => typeof v === 'string' && v === v.toUpperCase(),
  sameas: (v, a) => v === a[0] || (v === null && a[0] === null),
  escaped: () => false,
  in: (v, a) => compareOp('in', v, a[0]),
  eq: cmp('=='),
  equalto: cmp('=='),
  '==': cmp('=='),
  ne: cmp('!='),
  '!=': cmp('!='),
  lt: cmp('<'),
  lessthan: cmp('<'),
  '<': cmp('<'),
  le: cmp('<='),
  '<=': cmp('<='),
  gt: cmp('>'),
  greaterthan: cmp('>'),
  '>': cmp('>'),
  ge: cmp('>='),
  '>=': cmp('>='),
};

/** Every test name a template may use (for the editor's unknown-test check). */
export const JINJA_TEST_NAMES = Object.keys(JINJA_TESTS)
  .filter((n) => /^[a-z]/.test(n))
  .concat(['filter', 'test']);
