// Helpers for pagination component tests: responses built from record counts and bodies.
import type { HttpResponse } from '../../../server/src/runtime/types';

/** A JSON response whose `data` holds `n` records with ids from `from`. */
export function dataPage(n: number, from = 0, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpResponse {
  const data = Array.from({ length: n }, (_, i) => ({ id: from + i + 1 }));
  return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ data, ...extra }) };
}

export const DATA_EXTRACTOR = { type: 'DpathExtractor', field_path: ['data'] };
