// The runtime's one error class. Every error thrown across the public API carries a failureType
// (docs/runtime.md "Errors"), an HTTP status when it wraps a response, and a message with no secret.

export type FailureType = 'config_error' | 'transient_error' | 'system_error';

export class RuntimeError extends Error {
  readonly failureType: FailureType;
  readonly status?: number;
  /** Template errors carry their kind (docs/runtime.md `interpolate`). */
  readonly kind?: string;

  constructor(message: string, failureType: FailureType, extra: { status?: number; kind?: string; cause?: unknown } = {}) {
    super(message, extra.cause !== undefined ? { cause: extra.cause } : undefined);
    this.name = 'RuntimeError';
    this.failureType = failureType;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.kind !== undefined) this.kind = extra.kind;
  }
}

export function configError(message: string, extra: { status?: number; kind?: string; cause?: unknown } = {}): RuntimeError {
  return new RuntimeError(message, 'config_error', extra);
}

export function transientError(message: string, extra: { status?: number; cause?: unknown } = {}): RuntimeError {
  return new RuntimeError(message, 'transient_error', extra);
}

export function systemError(message: string, extra: { status?: number; cause?: unknown } = {}): RuntimeError {
  return new RuntimeError(message, 'system_error', extra);
}
