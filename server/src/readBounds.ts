// Hard bounds of a test read run by the language server, whatever the client asks: workspace settings
// come from the repository that is open, so they may lower the limits but never lift them past these.
// Each read also has a budget of bytes received and of wall-clock time; past either it stops with a
// message that says which bound and why. docs/security.md lists the values.
import type { HttpRequest, HttpResponse } from './runtime';

/** The most a test read may ask for; the settings' declared maximums (package.json) match these. */
export const HARD_LIMITS = { maxRecords: 5000, maxPagesPerSlice: 100, maxSlices: 100 } as const;

/** One response's largest body, and one request's longest wait. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const MAX_REQUEST_TIMEOUT_MS = 120_000;

/**
 * What one read may receive in all (every response body, auxiliary requests included), and for how
 * long it may run. The server's environment may lower them (the tests do), never raise them.
 */
export const READ_BYTES_BUDGET = lowered(process.env.AIRBYTE_MANIFEST_STUDIO_READ_BYTES_BUDGET, 256 * 1024 * 1024);
export const READ_TIME_BUDGET_MS = lowered(process.env.AIRBYTE_MANIFEST_STUDIO_READ_TIME_BUDGET_MS, 10 * 60_000);

function lowered(value: string | undefined, max: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? Math.min(n, max) : max;
}

type Limits = { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
type Http = { timeoutMs?: number; maxResponseBytes?: number };

/** `limits` with every value lowered to its hard maximum (anything else is left for the runtime to check). */
export function boundLimits<T extends Limits | undefined>(limits: T): T {
  if (!limits || typeof limits !== 'object') return limits;
  const out: Limits = { ...limits };
  for (const key of Object.keys(HARD_LIMITS) as Array<keyof typeof HARD_LIMITS>) {
    const v = out[key];
    if (typeof v === 'number' && v > HARD_LIMITS[key]) out[key] = HARD_LIMITS[key];
  }
  return out as T;
}

/** The transport bounds, lowered to the hard maximums; missing values get them too. */
export function boundHttp(http: Http | undefined): Required<Http> {
  const pick = (v: unknown, max: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(v, max) : max);
  return { timeoutMs: pick(http?.timeoutMs, MAX_REQUEST_TIMEOUT_MS), maxResponseBytes: pick(http?.maxResponseBytes, MAX_RESPONSE_BYTES) };
}

/** Why a read was stopped by its budget (the message the user sees). */
export type BudgetStop = { message: string };

/**
 * A fetch that counts the bytes of every body received and calls `exceeded` once (then refuses) when
 * the read's total passes `bytes`.
 */
export function budgetedFetch(
  fetch: (req: HttpRequest) => Promise<HttpResponse>,
  exceeded: (stop: BudgetStop) => void,
  bytes = READ_BYTES_BUDGET,
): (req: HttpRequest) => Promise<HttpResponse> {
  let total = 0;
  const message = `The test read stopped: its responses passed ${bytes.toLocaleString('en-US')} bytes in all, the most one test read may receive (settings cannot raise it). Lower the limits or the page size.`;
  return async (req) => {
    if (total > bytes) throw new Error(message);
    const res = await fetch(req);
    total += res.bodyBytes?.length ?? res.body.length;
    if (total > bytes) {
      exceeded({ message });
      throw new Error(message);
    }
    return res;
  };
}

/** Calls `exceeded` when the read has run for `ms`; returns the function that cancels the timer. */
export function timeBudget(exceeded: (stop: BudgetStop) => void, ms = READ_TIME_BUDGET_MS): () => void {
  const timer = setTimeout(
    () =>
      exceeded({
        message: `The test read stopped: it ran for ${Math.round(ms / 1000)} s, the most one test read may take (settings cannot raise it). Lower the limits, or check for an API that answers slowly.`,
      }),
    ms,
  );
  timer.unref?.();
  return () => clearTimeout(timer);
}
