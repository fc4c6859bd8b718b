// The error a template raises for Python's TypeError / ValueError, a sandbox SecurityError or an exceeded
// work limit. Not a JS Error on purpose (see values.ts): it is thrown and caught on hot paths.
// Its own module, imported by both the value model (values.ts) and the work meter (limits.ts).

/** Raised for Python TypeError / ValueError and sandbox SecurityError inside rendering. */
export class TemplateValueError {
  /** `pyType`: the Python exception class the reference would raise; TypeErrors are swallowed by the reference (§3.2). */
  constructor(
    readonly message: string,
    readonly pyType: 'TypeError' | 'ValueError' | 'SecurityError' | 'LimitError' = 'ValueError',
  ) {}
}
