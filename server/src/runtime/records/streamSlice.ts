// A stream slice (§3.6): partition keys plus cursor keys, and the extra fields some components add.
// Templates see one read-only mapping of both, which also exposes .partition/.cursor_slice/.extra_fields.

/** A slice as the page loop carries it. */
export type StreamSlice = {
  partition: Record<string, unknown>;
  cursor_slice: Record<string, unknown>;
  extra_fields?: Record<string, unknown>;
};

/** The single empty slice of a stream with no partition router and no cursor. */
export function emptySlice(): StreamSlice {
  return { partition: {}, cursor_slice: {} };
}

/** The merged mapping templates see as `stream_slice`; the component parts are non-enumerable. */
export function templateSlice(slice: StreamSlice): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...slice.partition, ...slice.cursor_slice };
  Object.defineProperty(merged, 'partition', { value: slice.partition, enumerable: false });
  Object.defineProperty(merged, 'cursor_slice', { value: slice.cursor_slice, enumerable: false });
  Object.defineProperty(merged, 'extra_fields', { value: slice.extra_fields ?? {}, enumerable: false });
  return merged;
}

/** True when the slice has neither partition nor cursor keys. */
export function isEmptySlice(slice: StreamSlice): boolean {
  return Object.keys(slice.partition).length === 0 && Object.keys(slice.cursor_slice).length === 0;
}
