// The regular-expression engine of every JSON-schema check of a manifest's spec (ajv's `code.regExp`):
// `pattern` and `patternProperties` run on RE2, whose matching time is linear in the input, so a
// backtracking pattern such as `^([a-zA-Z0-9_]+)*$` answers at once for any value. Used by the
// runtime (config validation before a read) and by the client (the testing-values form, Save, Import).
// Pure (imports nothing): the caller passes re2js's RE2JS class in.

/** The part of re2js's `RE2JS` class used here. */
export type Re2Class = {
  translateRegExp(pattern: string): string;
  compile(pattern: string): { test(input: string): boolean };
};

/** What ajv calls to compile a schema's pattern: `(pattern, flags) → { test }`, with the `code` it requires. */
export type SchemaRegExpEngine = ((pattern: string, flags: string) => { test(input: string): boolean; toString(): string }) & {
  code: string;
};

/**
 * The engine for ajv's `code.regExp`. A pattern RE2 cannot run (a backreference, a lookahead or a
 * lookbehind) makes the schema fail to compile with a message that says so.
 */
export function schemaPatternEngine(RE2: Re2Class): SchemaRegExpEngine {
  const cache = new Map<string, { test(input: string): boolean }>();
  const engine = (pattern: string): { test(input: string): boolean; toString(): string } => {
    let compiled = cache.get(pattern);
    if (!compiled) {
      try {
        // JavaScript syntax (`\u0041`, `[^]`) is translated to RE2's first.
        compiled = RE2.compile(RE2.translateRegExp(pattern));
      } catch (e) {
        throw new Error(
          `the pattern ${JSON.stringify(pattern)} cannot be checked: patterns run on RE2 (linear time), which has no backreferences or lookaround (${(e as Error).message})`,
        );
      }
      if (cache.size > 1000) cache.clear();
      cache.set(pattern, compiled);
    }
    const re = compiled;
    // ajv keys its cache of compiled patterns by toString(): each pattern must have its own.
    return { test: (input: string) => re.test(input), toString: () => `re2:${pattern}` };
  };
  return Object.assign(engine, { code: 're2js' });
}
