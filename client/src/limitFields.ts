// The three test-read limits as the "Run with limits…" form shows them. No vscode import: the form's
// webview script and the extension both read it.

export type LimitKey = 'maxRecords' | 'maxPagesPerSlice' | 'maxSlices';

/** Order, labels, help and the reference defaults (airbyte_cdk/connector_builder/test_reader/reader.py). */
export const LIMIT_FIELDS: ReadonlyArray<{ key: LimitKey; label: string; help: string; fallback: number }> = [
  { key: 'maxRecords', label: 'Maximum records', help: 'The read stops after this many records in total.', fallback: 100 },
  { key: 'maxPagesPerSlice', label: 'Maximum pages per slice', help: 'Pages requested per slice (partition or date window).', fallback: 5 },
  { key: 'maxSlices', label: 'Maximum slices', help: 'Slices read before stopping.', fallback: 5 },
];

/** A problem with a typed limit, or undefined when it is a whole number of at least 1. */
export function checkLimit(text: string): string | undefined {
  const t = text.trim();
  return /^\d+$/.test(t) && Number(t) >= 1 && Number(t) <= 1_000_000 ? undefined : 'Enter a whole number from 1 to 1000000.';
}
