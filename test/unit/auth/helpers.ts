// Shared helpers of the authenticator tests: a scripted fetch that records every request and a
// frozen, manually advanced clock.
import type { HttpRequest, HttpResponse, RuntimeEnv } from '../../../server/src/runtime/types';

export type Scripted = HttpResponse | ((req: HttpRequest) => HttpResponse | Promise<HttpResponse>) | Error;

/** A fetch that answers from a script (in order) and records the requests it saw. */
export function scriptedFetch(script: Scripted[]) {
  const requests: HttpRequest[] = [];
  const fetch = async (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    const next = script.shift();
    if (next === undefined) throw new Error(`unexpected request ${req.method} ${req.url}`);
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(req) : next;
  };
  return { fetch, requests };
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A clock frozen at `start` that tests advance by hand; sleeps are recorded and advance the clock. */
export function frozenClock(start: string | number) {
  let t = typeof start === 'number' ? start * 1000 : Date.parse(start);
  const sleeps: number[] = [];
  const env: RuntimeEnv = {
    now: () => new Date(t),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
  return { env, sleeps, advance: (seconds: number) => (t += seconds * 1000) };
}

/** A network failure as env.fetch reports it. */
export function networkError(code = 'ECONNREFUSED'): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}
