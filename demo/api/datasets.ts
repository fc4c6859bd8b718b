// Deterministic demo records, generated on demand from their index so that data sets of any size
// (the benchmark reads 100,000 records) cost no memory.

/** Items in a data set when the request does not say `total`. */
export const DEFAULT_TOTAL = 250;
const CATEGORIES = ['books', 'games', 'music', 'tools', 'garden'];
const BASE_TIME = Date.UTC(2024, 0, 1);

/** The item with index i (0-based): id i+1, a name, a category, an amount and two timestamps an hour apart. */
export function item(i: number): Record<string, unknown> {
  const created = new Date(BASE_TIME + i * 3_600_000);
  return {
    id: i + 1,
    name: `Item ${i + 1}`,
    category: CATEGORIES[i % CATEGORIES.length],
    amount: Math.round(((i * 37) % 1000) * 1.5) / 10,
    active: i % 3 !== 0,
    created_at: created.toISOString().replace('.000Z', 'Z'),
    updated_at: new Date(created.getTime() + 1_800_000).toISOString().replace('.000Z', 'Z'),
  };
}

/** Index of the first item whose updated_at is at or after `ms` (items are sorted by updated_at). */
export function firstUpdatedAtOrAfter(ms: number): number {
  return Math.max(0, Math.ceil((ms - BASE_TIME - 1_800_000) / 3_600_000));
}

/** Items [from, from+count) clipped to the data set size. */
export function items(from: number, count: number, total: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const end = Math.min(total, from + count);
  for (let i = Math.max(0, from); i < end; i++) out.push(item(i));
  return out;
}

/** The parent records of the substream demo. */
export function parents(total: number): Record<string, unknown>[] {
  return Array.from({ length: total }, (_, i) => ({ id: `p${i + 1}`, title: `Parent ${i + 1}` }));
}

/** Children of one parent: three per parent. */
export function children(parentId: string): Record<string, unknown>[] {
  return [1, 2, 3].map((n) => ({ id: `${parentId}-c${n}`, parent_id: parentId, position: n }));
}

/** Reads a non-negative integer query parameter with a default and an upper bound. */
export function intParam(query: URLSearchParams, name: string, fallback: number, max = 1_000_000): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) return Number.NaN;
  return Math.min(n, max);
}
