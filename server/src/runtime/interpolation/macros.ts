// The CDK's template macros (airbyte_cdk/sources/declarative/interpolation/macros.py) and Jinja's remaining default globals
// (`dict`, `namespace`, `lipsum`, `cycler`, `joiner`; `range` is removed). The clock comes from
// RuntimeEnv.now so tests can freeze time.
import { randomUUID } from 'node:crypto';
import type { RuntimeEnv } from '../types';
import { Namespace, defineKey } from './attributes';
import { PyDate, PyDateTime, parseIsoDuration } from './datetime';
import { formatWithFormat, isoparse, parseWithFormat, strftime, strptime } from './datetimeFormat';
import {
  type PyDict,
  PyFunction,
  TemplateReference,
  TemplateValueError,
  Undefined,
  UndefinedAccessError,
  isDict,
  isFloat,
  iterate,
  makeFloat,
  numberOf,
  pyStr,
  typeName,
} from './values';
import { compareOp } from './operators';
import { charge, checkText } from './limits';

function arg(args: unknown[], kw: Record<string, unknown>, i: number, name: string, dflt?: unknown): unknown {
  if (i < args.length) return args[i];
  if (Object.hasOwn(kw, name)) return kw[name];
  if (dflt === undefined) throw new TemplateValueError(`missing required argument '${name}'`);
  return dflt;
}

/** Spec §3.7 str_to_datetime: strict ISO parse, naive → UTC, then converted to UTC. */
export function strToDatetime(value: unknown): PyDateTime {
  // dateutil touches attributes of its argument, which raises UndefinedError for Jinja's Undefined.
  if (value instanceof Undefined) throw new UndefinedAccessError(value.hint || 'undefined value passed to str_to_datetime');
  if (typeof value !== 'string') throw new TemplateValueError(`str_to_datetime expects a string, got ${typeName(value)}`);
  try {
    const dt = isoparse(value);
    return dt.offsetMinutes === null ? dt.withOffset(0) : dt.toOffset(0);
  } catch (e) {
    throw new TemplateValueError((e as Error).message);
  }
}

function minMax(name: 'max' | 'min', args: unknown[]): unknown {
  const items = args.length === 1 ? iterate(args[0]) : args;
  charge(items.length);
  if (items.length === 0) throw new TemplateValueError(`${name}() arg is an empty sequence`);
  let best = items[0];
  for (const x of items.slice(1)) if (compareOp(name === 'max' ? '>' : '<', x, best)) best = x;
  return best;
}

function todayIn(timezone: string, now: Date): PyDate {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  } catch {
    throw new TemplateValueError(`unknown timezone '${timezone}'`);
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return new PyDate(get('year'), get('month'), get('day'));
}

function formatDatetime(dt: unknown, format: string, inputFormat: unknown): string {
  // Spec §3.7 format_datetime: datetimes use plain strftime; ints parse as epoch; strings via input_format or ISO.
  if (dt instanceof PyDate) return strftime(dt, format);
  if (dt instanceof Undefined) throw new UndefinedAccessError(dt.hint || 'undefined value passed to format_datetime');
  let parsed: PyDateTime;
  try {
    if (typeof dt === 'number' && !isFloat(dt)) parsed = parseWithFormat(dt, inputFormat ? String(inputFormat) : '%s');
    else if (typeof dt === 'string') parsed = inputFormat ? strptime(dt, String(inputFormat)) : strToDatetime(dt);
    else throw new TemplateValueError(`format_datetime cannot format a ${typeName(dt)}`, 'TypeError');
  } catch (e) {
    throw e instanceof TemplateValueError ? e : new TemplateValueError((e as Error).message);
  }
  if (parsed.offsetMinutes === null) parsed = parsed.withOffset(0);
  return formatWithFormat(parsed, format);
}

/**
 * The real clock to the microsecond, as Python's datetime.now() (a Date has milliseconds only): the
 * high-resolution clock gives the fraction of the millisecond.
 */
function preciseNow(): PyDateTime {
  const ms = performance.timeOrigin + performance.now();
  const whole = Math.floor(ms);
  return new PyDateTime(whole, Math.min(999, Math.floor((ms - whole) * 1000)), 0);
}

/** Builds the global functions for one evaluation, bound to the clock of `env`. */
export function createGlobals(env: RuntimeEnv | undefined): Record<string, PyFunction | TemplateReference> {
  const now = () => (env?.now ? env.now() : new Date());
  const fn = (name: string, call: (a: unknown[], kw: Record<string, unknown>) => unknown) => new PyFunction(name, call);
  return {
    now_utc: fn('now_utc', () => (env?.now ? PyDateTime.fromDate(env.now()) : preciseNow())),
    today_utc: fn('today_utc', () => PyDateTime.fromDate(now()).date()),
    today_with_timezone: fn('today_with_timezone', (a, kw) => todayIn(String(arg(a, kw, 0, 'timezone')), now())),
    timestamp: fn('timestamp', (a, kw) => {
      const dt = arg(a, kw, 0, 'dt');
      const n = typeof dt === 'boolean' ? undefined : numberOf(dt);
      if (n !== undefined) return Math.trunc(n);
      return makeFloat(strToDatetime(dt).timestamp());
    }),
    str_to_datetime: fn('str_to_datetime', (a, kw) => strToDatetime(arg(a, kw, 0, 's'))),
    max: fn('max', (a) => minMax('max', a)),
    min: fn('min', (a) => minMax('min', a)),
    day_delta: fn('day_delta', (a, kw) => {
      const days = numberOf(arg(a, kw, 0, 'num_days'));
      if (days === undefined) throw new TemplateValueError('day_delta expects a number of days');
      const format = String(arg(a, kw, 1, 'format', '%Y-%m-%dT%H:%M:%S.%f%z'));
      return formatWithFormat(PyDateTime.fromDate(now()).plusMicros(BigInt(Math.round(days * 86_400e6))), format);
    }),
    duration: fn('duration', (a, kw) => {
      try {
        return parseIsoDuration(String(arg(a, kw, 0, 'datestring')));
      } catch (e) {
        throw new TemplateValueError((e as Error).message);
      }
    }),
    format_datetime: fn('format_datetime', (a, kw) =>
      formatDatetime(arg(a, kw, 0, 'dt'), String(arg(a, kw, 1, 'format')), arg(a, kw, 2, 'input_format', null)),
    ),
    sanitize_url: fn('sanitize_url', (a, kw) => quotePlus(pyStr(arg(a, kw, 0, 'value')))),
    camel_case_to_snake_case: fn('camel_case_to_snake_case', (a, kw) => {
      const v = pyStr(arg(a, kw, 0, 'value'));
      // One `_` per capital after the first character: the result size is known before it is built.
      let capitals = 0;
      for (let i = 1; i < v.length; i++) if (v.charCodeAt(i) >= 65 && v.charCodeAt(i) <= 90) capitals++;
      checkText(v.length + capitals, 'camel_case_to_snake_case');
      return v.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
    }),
    generate_uuid: fn('generate_uuid', () => randomUUID()),
    dict: fn('dict', (a, kw) => {
      const out: PyDict = Object.create(null);
      if (a.length && isDict(a[0])) charge(Object.keys(a[0]).length);
      if (a.length && isDict(a[0])) for (const k of Object.keys(a[0])) defineKey(out, k, a[0][k]);
      for (const k of Object.keys(kw)) defineKey(out, k, kw[k]);
      return Object.assign({}, out);
    }),
    namespace: fn('namespace', (_a, kw) => {
      const ns = new Namespace();
      for (const k of Object.keys(kw)) ns.attrs.set(k, kw[k]);
      return ns;
    }),
    // Jinja declares `self` (the template reference) in every template; it has no blocks here, so any attribute is undefined.
    self: new TemplateReference(),
    lipsum: fn('lipsum', () => 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.'),
    cycler: fn('cycler', (a) => {
      let i = 0;
      const self: PyDict = {};
      defineKey(self, 'next', new PyFunction('next', () => a[i++ % Math.max(a.length, 1)] ?? null));
      return self;
    }),
    joiner: fn('joiner', (a) => {
      let first = true;
      const sep = a.length ? pyStr(a[0]) : ', ';
      return new PyFunction('joiner', () => (first ? ((first = false), '') : sep));
    }),
  };
}

/** `json_loads` of JWT fields (§3.6): parses a JSON string. Put it in the context as `json_loads`. */
export const jsonLoads = new PyFunction('json_loads', (a) => {
  if (typeof a[0] !== 'string') throw new TemplateValueError(`the JSON object must be str, not ${typeName(a[0])}`, 'TypeError');
  try {
    return JSON.parse(a[0]);
  } catch (e) {
    throw new TemplateValueError(`invalid JSON: ${(e as Error).message}`);
  }
});

/** Python urllib.parse.quote_plus (safe characters: letters, digits, `_.-~`). */
export function quotePlus(text: string): string {
  // Every UTF-8 byte becomes at most three characters (%XX): known before encoding.
  checkText(3 * Buffer.byteLength(text, 'utf8'), 'sanitize_url');
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Names of the macros of §3.7 (for the editor: completion, unknown-name checks). */
export const MACRO_NAMES = [
  'now_utc',
  'today_utc',
  'today_with_timezone',
  'timestamp',
  'str_to_datetime',
  'max',
  'min',
  'day_delta',
  'duration',
  'format_datetime',
  'sanitize_url',
  'camel_case_to_snake_case',
  'generate_uuid',
];
/** Jinja default globals still present in the reference environment. */
export const DEFAULT_GLOBAL_NAMES = ['dict', 'namespace', 'lipsum', 'cycler', 'joiner', 'self'];
