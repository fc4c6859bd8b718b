// Declared vs inferred schema of a stream, as the Connector Builder warns after a test read: fields the
// records have that the declared schema lacks, and fields whose types differ (a string declared where the
// records hold objects, …). Nullability is ignored: the inferred schema makes every field nullable
// (airbyte_cdk/connector_builder/test_reader/reader.py). Integer vs number follows the Builder: the CDK's inferrer never emits
// `integer` (schema_inferrer.py IntegerToNumber), so an inferred `number` contradicts a declared `integer`
// only when a record holds a number with a fraction at that path. Pure: the editor and the CLI's run of
// all streams use it.

/** One difference; the same shape as the protocol's SchemaDifference. */
export type SchemaDifference = { path: string; kind: 'missing' | 'type'; declared: string | null; inferred: string; message: string };

type Schema = Record<string, unknown>;

/** The JSON types a schema allows, without `null`; empty when it does not say. */
function typesOf(s: Schema): string[] {
  const t = s.type;
  const list = Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : typeof t === 'string' ? [t] : [];
  const named = list.filter((x) => x !== 'null');
  if (named.length === 0 && isMap(s.properties)) return ['object'];
  return [...new Set(named)].sort();
}

const label = (types: string[]) => (types.length ? types.join(' | ') : 'any type');

/** Paths (`a.b`, `list[].c`) where some record holds a number that is not whole. */
export function fractionalPaths(records: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v)) out.add(path);
      return;
    }
    if (Array.isArray(v)) {
      for (const item of v) visit(item, `${path}[]`);
      return;
    }
    if (isMap(v)) for (const [k, child] of Object.entries(v)) visit(child, path ? `${path}.${k}` : k);
  };
  for (const r of records) visit(r, '');
  return out;
}

/**
 * Differences between `declared` and `inferred`, walking nested objects and arrays of objects.
 * `fractional`: the paths where a record holds a non-whole number (fractionalPaths); only there does an
 * inferred `number` contradict a declared `integer`.
 */
export function schemaDifferences(
  declared: Schema | null,
  inferred: Schema,
  fractional: ReadonlySet<string> = new Set(),
): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  walk(declared ?? {}, inferred, '', out, fractional);
  return out;
}

/** The inferred types with `number` read as `integer` where the declared schema says integer and every value was whole. */
function wholeNumbersAsInteger(declaredTypes: string[], inferredTypes: string[], path: string, fractional: ReadonlySet<string>): string[] {
  if (!declaredTypes.includes('integer') || declaredTypes.includes('number') || !inferredTypes.includes('number') || fractional.has(path))
    return inferredTypes;
  return [...new Set(inferredTypes.map((t) => (t === 'number' ? 'integer' : t)))].sort();
}

function walk(declared: Schema, inferred: Schema, prefix: string, out: SchemaDifference[], fractional: ReadonlySet<string>): void {
  const declaredProps = isMap(declared.properties) ? declared.properties : {};
  const inferredProps = isMap(inferred.properties) ? inferred.properties : {};
  for (const [key, inf] of Object.entries(inferredProps)) {
    if (!isMap(inf)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const dec = declaredProps[key];
    const inferredTypes = typesOf(inf);
    if (!isMap(dec)) {
      out.push({
        path,
        kind: 'missing',
        declared: null,
        inferred: label(inferredTypes),
        message: `“${path}” is in the records (${label(inferredTypes)}) but not in the declared schema.`,
      });
      continue;
    }
    const declaredTypes = typesOf(dec);
    if (
      declaredTypes.length &&
      inferredTypes.length &&
      !sameTypes(declaredTypes, wholeNumbersAsInteger(declaredTypes, inferredTypes, path, fractional))
    ) {
      out.push({
        path,
        kind: 'type',
        declared: label(declaredTypes),
        inferred: label(inferredTypes),
        message: `“${path}” is declared as ${label(declaredTypes)} but the records hold ${label(inferredTypes)}.`,
      });
      continue;
    }
    if (inferredTypes.includes('object')) walk(dec, inf, path, out, fractional);
    if (inferredTypes.includes('array') && isMap(inf.items) && isMap(dec.items)) {
      const decItems = dec.items;
      const infItems = inf.items;
      const di = typesOf(decItems);
      const ii = typesOf(infItems);
      if (di.length && ii.length && !sameTypes(di, wholeNumbersAsInteger(di, ii, `${path}[]`, fractional))) {
        out.push({
          path: `${path}[]`,
          kind: 'type',
          declared: label(di),
          inferred: label(ii),
          message: `The items of “${path}” are declared as ${label(di)} but the records hold ${label(ii)}.`,
        });
      } else if (ii.includes('object')) {
        walk(decItems, infItems, `${path}[]`, out, fractional);
      }
    }
  }
}

function sameTypes(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** Serves `airbyte/schemaDifferences` for an open manifest. Never throws. */
function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The differences of a resolved stream's declared schema with `inferred`: `declared` says where the
 * declared schema comes from; they are computed only for an inline schema or none at all. `records`: the
 * records read (where a number has a fraction, see fractionalPaths).
 */
export function streamSchemaDifferences(
  stream: Record<string, unknown>,
  inferred: Schema,
  records: readonly unknown[] = [],
): { declared: 'inline' | 'none' | 'other'; differences: SchemaDifference[] } {
  const fractional = fractionalPaths(records);
  const loader = stream.schema_loader;
  if (loader === undefined || loader === null) return { declared: 'none', differences: schemaDifferences(null, inferred, fractional) };
  if (isMap(loader) && loader.type === 'InlineSchemaLoader')
    return { declared: 'inline', differences: schemaDifferences(isMap(loader.schema) ? loader.schema : {}, inferred, fractional) };
  return { declared: 'other', differences: [] };
}
