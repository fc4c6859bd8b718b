// CsvParser / CsvDecoder: one record per row, keyed by the header row, every value a string, the
// listed `set_values_to_none` values read as null. Follows Python's csv.DictReader (excel dialect).
import { parse } from 'csv-parse/sync';
import { configError, systemError } from '../errors';
import { decodeText } from './textEncoding';
import type { Parser } from './parser';

/** Builds the parser from a CsvDecoder or CsvParser component (fields: encoding, delimiter, set_values_to_none). */
export function createCsvParser(component: Record<string, unknown>): Parser {
  const encoding = (component.encoding as string | undefined) ?? 'utf-8';
  const delimiter = csvDelimiter(component.delimiter);
  const none = component.set_values_to_none;
  if (none !== undefined && none !== null && (!Array.isArray(none) || none.some((v) => typeof v !== 'string'))) {
    throw configError('CsvDecoder.set_values_to_none must be a list of strings.');
  }
  const toNull = new Set((none as string[] | undefined) ?? []);
  return {
    name: 'CsvParser',
    parse(bytes) {
      const text = decodeText(bytes, encoding, 'CsvDecoder');
      let rows: string[][];
      try {
        // relax_quotes/relax_column_count: Python's csv module is equally forgiving about stray quotes
        // and ragged rows; blank lines are skipped like DictReader skips empty rows.
        rows = parse(text, { delimiter, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, bom: false });
      } catch (e) {
        throw systemError(`The response could not be read as CSV: ${(e as Error).message}`);
      }
      if (rows.length === 0) return [];
      const header = rows[0];
      const records: Record<string, unknown>[] = [];
      for (let r = 1; r < rows.length; r++) {
        const row = rows[r];
        const record: Record<string, unknown> = {};
        // Short rows get null for the missing columns (DictReader's restval).
        header.forEach((key, i) => setField(record, key, i < row.length ? row[i] : null));
        // Python keys extra cells by None, which JSON output writes as "null".
        if (row.length > header.length) record.null = row.slice(header.length);
        if (toNull.size)
          for (const key of header) if (typeof record[key] === 'string' && toNull.has(record[key] as string)) setField(record, key, null);
        records.push(record);
      }
      return records;
    },
  };
}

/** Sets a column as an own property, so that a header named `__proto__` is a column like any other. */
function setField(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The delimiter: "," when empty; a value starting with a backslash is an escape ("\\t" → tab), as in the CDK. */
function csvDelimiter(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return ',';
  if (typeof raw !== 'string') throw configError('CsvDecoder.delimiter must be a string.');
  const value = raw.startsWith('\\') ? unescape(raw) : raw;
  if ([...value].length !== 1) throw configError(`CsvDecoder.delimiter must be a single character; got ${JSON.stringify(raw)}.`);
  return value;
}

function unescape(s: string): string {
  const simple: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\', '0': '\0', f: '\f', v: '\v' };
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return simple[e] ?? `\\${e}`;
  });
}
