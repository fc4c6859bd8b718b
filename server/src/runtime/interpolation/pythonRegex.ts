// Python `re` patterns run on RE2 (re2js, a pure-JS port): matching time is linear in the input, so
// no pattern (`^(a|a)*$`, `(a+)+$`) can backtrack for minutes. RE2 has no backreferences and no
// lookaround; a pattern using them gets an error naming the construct. The remaining cost, program
// size × input length, is bounded before matching and charged to the running template evaluation.
import { RE2JS } from 're2js';
import { charge, TextBuilder } from './limits';
import { TemplateValueError } from './values';

/** Longest pattern accepted (compiling is bounded too). */
export const MAX_PATTERN_LENGTH = 2_000;
/** Longest input a regular expression runs on. */
export const MAX_REGEX_INPUT = 1_000_000;
/** Largest program size × input length one match may cost (about half a second at worst). */
const MAX_MATCH_COST = 5_000_000;

/** Python constructs RE2 cannot run, found outside character classes, with the name users see. */
const UNSUPPORTED_GROUPS: [string, string][] = [
  ['(?<=', 'lookbehind `(?<=…)`'],
  ['(?<!', 'negative lookbehind `(?<!…)`'],
  ['(?=', 'lookahead `(?=…)`'],
  ['(?!', 'negative lookahead `(?!…)`'],
  ['(?P=', 'named backreference `(?P=name)`'],
  ['(?>', 'atomic group `(?>…)`'],
  ['(?(', 'conditional group `(?(…)…)`'],
  ['(?#', 'comment group `(?#…)`'],
];

function unsupported(what: string, pattern: string, construct: string): never {
  throw new TemplateValueError(
    `${what}: the regular expression ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern)} uses a ${construct}, ` +
      'which is not supported: regular expressions run on RE2 (linear time), which has no backreferences or lookaround',
  );
}

/** Rewrites Python-only syntax RE2 spells differently, and refuses what RE2 cannot run. */
export function translatePythonPattern(pattern: string, what: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) unsupported(what, pattern, `backreference \`\\${next}\``);
      // Python's \Z (end of text) is RE2's \z.
      out += next === 'Z' && !inClass ? '\\z' : ch + next;
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
      continue;
    }
    if (ch === '(') {
      const group = UNSUPPORTED_GROUPS.find(([prefix]) => pattern.startsWith(prefix, i));
      if (group) unsupported(what, pattern, group[1]);
    }
    if ((ch === '*' || ch === '+' || ch === '?') && pattern[i + 1] === '+') unsupported(what, pattern, `possessive quantifier \`${ch}+\``);
    out += ch;
  }
  return out;
}

const CACHE_LIMIT = 256;
const cache = new Map<string, RE2JS | TemplateValueError>();

/** Compiles a Python pattern for RE2 (cached). Throws TemplateValueError with a clear message. */
export function compilePythonRegex(pattern: string, what: string, caseInsensitive = false): RE2JS {
  const key = `${caseInsensitive ? 'i' : '-'}${what}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit instanceof TemplateValueError) throw hit;
  if (hit) return hit;
  let result: RE2JS | TemplateValueError;
  try {
    if (pattern.length > MAX_PATTERN_LENGTH)
      throw new TemplateValueError(`${what}: regular expression longer than ${MAX_PATTERN_LENGTH} characters`);
    result = RE2JS.compile(translatePythonPattern(pattern, what), caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    result = e instanceof TemplateValueError ? e : new TemplateValueError(`${what}: invalid regular expression: ${(e as Error).message}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  if (result instanceof TemplateValueError) throw result;
  return result;
}

function programSize(re: RE2JS): number {
  const inner = (re as unknown as { re2Input?: { numberOfInstructions?: () => number } }).re2Input;
  return inner?.numberOfInstructions?.() ?? 1000;
}

/** Refuses a match whose worst-case cost is too high, and charges it to the running evaluation. */
function admit(re: RE2JS, input: string, what: string): void {
  if (input.length > MAX_REGEX_INPUT)
    throw new TemplateValueError(`${what}: input longer than ${MAX_REGEX_INPUT} characters`, 'LimitError');
  const cost = programSize(re) * (input.length + 1);
  if (cost > MAX_MATCH_COST) {
    throw new TemplateValueError(
      `${what}: the regular expression is too large for an input of ${input.length} characters (shorten the pattern or the input)`,
      'LimitError',
    );
  }
  charge(Math.ceil(cost / 64));
}

/** Python `re.search(pattern, text)`: the first match's groups (index 0 = whole match), or null. */
export function pythonSearch(pattern: string, text: string, what: string): (string | null)[] | null {
  const re = compilePythonRegex(pattern, what);
  admit(re, text, what);
  const m = re.matcher(text);
  if (!m.find()) return null;
  const groups: (string | null)[] = [];
  for (let g = 0; g <= re.groupCount(); g++) groups.push(m.group(g));
  return groups;
}

/** Python `re.match(pattern, text)`-like prefix match: the whole match at the start of `text`, or null. */
export function pythonMatchPrefix(re: RE2JS, text: string, what: string): string | null {
  admit(re, text, what);
  const m = re.matcher(text);
  return m.lookingAt() ? m.group(0) : null;
}

/** Python `re.sub(pattern, replacement, text)` with Python's replacement syntax (`\1`, `\g<name>`, `\n`). */
export function pythonSub(pattern: string, replacement: string, text: string, what: string): string {
  const re = compilePythonRegex(pattern, what);
  admit(re, text, what);
  const template = parseReplacement(replacement, re, what);
  const out = new TextBuilder(what);
  const m = re.matcher(text);
  let last = 0;
  // Java-style find(): an empty match right after a non-empty one is allowed, as in Python 3.7+.
  while (m.find()) {
    charge(1);
    out.add(text.slice(last, m.start()));
    for (const part of template) out.add(typeof part === 'string' ? part : (m.group(part) ?? ''));
    last = m.end();
  }
  out.add(text.slice(last));
  return out.toString();
}

/** A replacement as literal text and group numbers. */
function parseReplacement(rep: string, re: RE2JS, what: string): (string | number)[] {
  const parts: (string | number)[] = [];
  let text = '';
  const names = re.namedGroups() as Record<string, number>;
  const group = (ref: string): number => {
    const n = /^\d+$/.test(ref) ? Number(ref) : Object.hasOwn(names, ref) ? names[ref] : -1;
    if (n < 0 || n > re.groupCount()) throw new TemplateValueError(`${what}: invalid group reference ${ref} in the replacement`);
    return n;
  };
  for (let i = 0; i < rep.length; i++) {
    const ch = rep[i];
    if (ch !== '\\' || i + 1 >= rep.length) {
      text += ch;
      continue;
    }
    const rest = rep.slice(i + 1);
    const named = /^g<([A-Za-z_0-9]+)>/.exec(rest);
    const numbered = /^\d{1,2}/.exec(rest);
    if (named || numbered) {
      if (text) parts.push(text);
      text = '';
      const ref = named ? named[1] : (numbered as RegExpExecArray)[0];
      parts.push(group(ref));
      i += (named ?? (numbered as RegExpExecArray))[0].length;
    } else {
      const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', f: '\f', v: '\v' };
      text += escapes[rest[0]] ?? `\\${rest[0]}`;
      i++;
    }
  }
  if (text) parts.push(text);
  return parts;
}

const internalPatterns = new Map<string, RE2JS>();

/**
 * Groups of a whole-text match of a pattern the runtime builds itself from a user format (strptime,
 * cursor datetime formats), or null. RE2 instead of a JS RegExp: a format of many `%d` against a
 * long digit string from an API would backtrack exponentially. Throws RangeError for a bad pattern.
 */
export function wholeMatchGroups(pattern: string, text: string, caseInsensitive = false): (string | null)[] | null {
  const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  let re = internalPatterns.get(key);
  if (!re) {
    try {
      re = RE2JS.compile(`^(?:${pattern})$`, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (e) {
      throw new RangeError(`invalid format: ${(e as Error).message}`);
    }
    if (internalPatterns.size >= CACHE_LIMIT) internalPatterns.delete(internalPatterns.keys().next().value as string);
    internalPatterns.set(key, re);
  }
  const m = re.matcher(text);
  if (!m.find()) return null;
  const groups: (string | null)[] = [];
  for (let g = 0; g <= re.groupCount(); g++) groups.push(m.group(g));
  return groups;
}
