// The manifest's `api_budget` (CDK sources/streams/call_rate.py, HttpAPIBudget): one budget for the whole
// source, shared by every HttpRequester. Before each request the first policy whose matchers match takes
// the request's weight (UnlimitedCallRatePolicy: nothing; FixedWindowCallRatePolicy: calls per period, the
// first window ending 10 days after the build until the API reports a reset; MovingWindowCallRatePolicy:
// pyrate_limiter's moving windows, one per Rate); after each response the API's remaining-calls and reset
// headers are read with Python's int(), which fails the read on a value that is not an integer, as in the
// CDK. Where the CDK would sleep until the budget has room, a test read waits too when the wait is short
// (≤ MAX_TEST_READ_WAIT_SECONDS, logged), and otherwise stops with what the CDK would do.
import type { HttpRequest, HttpResponse, RuntimeEnv } from '../types';
import { configError, RuntimeError } from '../errors';
import { evalString, pythonStr } from './interpolatedValues';
import { pythonSearch } from '../interpolation/pythonRegex';
import { PyDateTime, PyDuration, parseIsoDuration } from '../interpolation/datetime';
import { headerValue } from './headers';

type Obj = Record<string, unknown>;

/** Longest wait a test read accepts from the budget before it stops instead. */
export const MAX_TEST_READ_WAIT_SECONDS = 60;

export type ApiBudget = {
  /** Takes the request's weight from its policy, waiting (env.sleep) while the CDK would; throws when it would wait longer than a test read does. */
  acquire(request: HttpRequest): Promise<void>;
  /** HttpAPIBudget.update_from_response. Throws the CDK's ValueError on a header that is not an integer. */
  update(request: HttpRequest, response: HttpResponse): void;
};

type Matcher = { matches(request: HttpRequest): boolean; weight: number | null };
type Policy = {
  name: string;
  matchers: Matcher[];
  tryAcquire(weight: number, now: number): number | null;
  update(available: number | null, resetMs: number | null, now: number): void;
};

/** Builds the manifest's api_budget, or null without one. `log` receives the waits. */
export function createApiBudget(component: unknown, config: object, env: RuntimeEnv, log: (message: string) => void): ApiBudget | null {
  if (!component || typeof component !== 'object') return null;
  const budget = component as Obj;
  if (budget.type !== 'HTTPAPIBudget') throw configError(`api_budget must be an HTTPAPIBudget (got ${JSON.stringify(budget.type)}).`);
  const clock = { offsetMs: 0 };
  const now = () => (env.now ? env.now().getTime() : Date.now()) + clock.offsetMs;
  const built = now();
  const policies = ((budget.policies as Obj[] | undefined) ?? []).map((p) => createPolicy(p, config, env, built));
  const remainingHeader =
    typeof budget.ratelimit_remaining_header === 'string' && budget.ratelimit_remaining_header
      ? budget.ratelimit_remaining_header
      : 'ratelimit-remaining';
  const resetHeader =
    typeof budget.ratelimit_reset_header === 'string' && budget.ratelimit_reset_header ? budget.ratelimit_reset_header : 'ratelimit-reset';
  const hitStatuses =
    Array.isArray(budget.status_codes_for_ratelimit_hit) && budget.status_codes_for_ratelimit_hit.length
      ? budget.status_codes_for_ratelimit_hit.map(Number)
      : [429];
  const sleep = env.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const policyFor = (request: HttpRequest) =>
    policies.find((p) => !p.matchers.length || p.matchers.some((m) => m.matches(request))) ?? null;

  return {
    async acquire(request) {
      const policy = policyFor(request);
      if (!policy) return;
      const weight = policy.matchers.find((m) => m.matches(request) && m.weight !== null)?.weight ?? 1;
      for (;;) {
        const waitMs = policy.tryAcquire(weight, now());
        if (waitMs === null) return;
        if (waitMs <= 0) {
          // The window ends now: the CDK sleeps 0 s and its clock has moved on by the time it asks again.
          clock.offsetMs += 1;
          continue;
        }
        const seconds = Math.max(0, waitMs) / 1000;
        if (seconds > MAX_TEST_READ_WAIT_SECONDS) {
          throw new RuntimeError(
            `api_budget: ${policy.name} has no room for ${request.method} ${request.url.split('?')[0]}; the Python CDK would wait ${pythonTimedelta(waitMs)} here before sending it. A test read waits at most ${MAX_TEST_READ_WAIT_SECONDS} s: raise the policy's limit for test reads, or read fewer pages.`,
            'transient_error',
          );
        }
        log(
          `api_budget: ${policy.name} reached its limit; waiting ${seconds} s before ${request.method} ${request.url.split('?')[0]}, as the Python CDK does.`,
        );
        const before = env.now ? env.now().getTime() : Date.now();
        await sleep(waitMs);
        // A frozen clock (tests, replays) does not move while waiting: the budget's clock moves on by the wait.
        const after = env.now ? env.now().getTime() : Date.now();
        clock.offsetMs += Math.max(0, before + waitMs - after);
      }
    },
    update(request, response) {
      const policy = policyFor(request);
      if (!policy) return;
      const remaining = headerValue(response.headers, remainingHeader);
      const available = remaining ? pythonInt(remaining) : hitStatuses.includes(response.status) ? 0 : null;
      const reset = headerValue(response.headers, resetHeader);
      const resetMs = reset ? pythonInt(reset) * 1000 : null;
      policy.update(available, resetMs, now());
    },
  };
}

function createPolicy(p: Obj, config: object, env: RuntimeEnv, builtMs: number): Policy {
  const matchers = ((p.matchers as Obj[] | undefined) ?? []).map((m) => createMatcher(m, config, env));
  switch (p.type) {
    case 'UnlimitedCallRatePolicy':
      return { name: 'UnlimitedCallRatePolicy', matchers, tryAcquire: () => null, update: () => {} };
    case 'FixedWindowCallRatePolicy': {
      const periodMs = durationMs(p.period, 'FixedWindowCallRatePolicy.period', builtMs);
      const limit = Number(p.call_limit);
      // The CDK starts with a window ending 10 days after the build; the API's reset header moves it.
      let nextReset = builtMs + 10 * 86_400_000;
      let calls = 0;
      const roll = (now: number) => {
        if (now > nextReset) {
          nextReset += periodMs;
          calls = 0;
        }
      };
      return {
        name: `FixedWindowCallRatePolicy (${limit} calls per ${pythonTimedelta(periodMs)})`,
        matchers,
        tryAcquire(weight, now) {
          if (weight > limit) throw new RuntimeError('ValueError: Weight can not exceed the call limit', 'config_error');
          roll(now);
          if (calls + weight > limit) return nextReset - now;
          calls += weight;
          return null;
        },
        update(available, resetMs, now) {
          roll(now);
          if (available !== null && limit - calls > available) calls = limit - available;
          if (resetMs !== null && resetMs !== nextReset) nextReset = resetMs;
        },
      };
    }
    case 'MovingWindowCallRatePolicy': {
      const rates = ((p.rates as Obj[] | undefined) ?? []).map((r) => ({
        limit: rateLimit(r, config, env),
        intervalMs: durationMs(r.interval, 'Rate.interval', builtMs),
      }));
      if (!rates.length) throw configError('MovingWindowCallRatePolicy: The list of rates can not be empty');
      // pyrate_limiter's InMemoryBucket: one timestamp per unit of weight, checked against every rate.
      const items: number[] = [];
      const lowest = Math.min(...rates.map((r) => r.limit));
      return {
        name: `MovingWindowCallRatePolicy (${rates.map((r) => `${r.limit} per ${pythonTimedelta(r.intervalMs)}`).join(', ')})`,
        matchers,
        tryAcquire(weight, now) {
          if (weight > lowest)
            throw new RuntimeError(`ValueError: Weight can not exceed the lowest configured rate limit (${lowest})`, 'config_error');
          for (const rate of rates) {
            const inWindow = items.filter((t) => t > now - rate.intervalMs);
            if (inWindow.length + weight > rate.limit) {
              // Room comes when enough of the oldest calls of the window have left it.
              const leaving = inWindow[inWindow.length + weight - rate.limit - 1];
              return leaving + rate.intervalMs - now;
            }
          }
          for (let i = 0; i < weight; i++) items.push(now);
          return null;
        },
        update(available, resetMs, now) {
          // Only "no calls left" without a reset time is followed: the first rate's window is filled.
          if (available === 0 && resetMs === null) {
            const inWindow = items.filter((t) => t > now - rates[0].intervalMs).length;
            if (inWindow < rates[0].limit) items.push(now);
          }
        },
      };
    }
    default:
      throw configError(
        `api_budget policy ${JSON.stringify(p.type)} is not one of UnlimitedCallRatePolicy, FixedWindowCallRatePolicy, MovingWindowCallRatePolicy.`,
      );
  }
}

function createMatcher(m: Obj, config: object, env: RuntimeEnv): Matcher {
  // The CDK's schema gives HttpRequestRegexMatcher no `type`: every entry of a policy's `matchers` is one,
  // typed or not (source-cin7 writes `{method: GET, url_path_pattern: .*}`).
  if (!m || typeof m !== 'object' || Array.isArray(m))
    throw configError(`api_budget: each of a policy's matchers must be an object (an HttpRequestRegexMatcher), got ${JSON.stringify(m)}.`);
  let weight: number | null = null;
  if (m.weight !== undefined && m.weight !== null) {
    weight = pythonInt(typeof m.weight === 'string' ? pythonStr(evalString(m.weight, { config, parameters: {} }, env)) : String(m.weight));
    if (weight < 1) throw configError(`HttpRequestRegexMatcher: weight must be >= 1, got ${weight}`);
  }
  const method = typeof m.method === 'string' && m.method ? m.method.toUpperCase() : null;
  const base = typeof m.url_base === 'string' && m.url_base ? m.url_base.replace(/\/+$/, '') : null;
  const pattern = typeof m.url_path_pattern === 'string' && m.url_path_pattern ? m.url_path_pattern : null;
  const params = Object.entries((m.params as Obj | undefined) ?? {}).map(([k, v]) => [k, pythonStr(v)] as const);
  const headers = Object.entries((m.headers as Obj | undefined) ?? {}).map(([k, v]) => [k.toLowerCase(), pythonStr(v)] as const);
  return {
    weight,
    matches(request) {
      if (method !== null && request.method.toUpperCase() !== method) return false;
      const url = new URL(request.url);
      if (base !== null && `${url.protocol}//${url.host}` !== base) return false;
      if (pattern !== null && pythonSearch(pattern, url.pathname.replace(/\/+$/, ''), 'HttpRequestRegexMatcher.url_path_pattern') === null)
        return false;
      if (params.length) {
        // dict(parse_qsl(query)): the last value of a repeated key.
        const query = new Map<string, string>();
        for (const [k, v] of url.searchParams) query.set(k, v);
        if (!params.every(([k, v]) => query.get(k) === v)) return false;
      }
      if (headers.length) {
        const sent = new Map(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
        if (!headers.every(([k, v]) => sent.get(k) === v)) return false;
      }
      return true;
    },
  };
}

function rateLimit(r: Obj, config: object, env: RuntimeEnv): number {
  return pythonInt(pythonStr(evalString(String(r.limit), { config, parameters: {} }, env)));
}

/** An ISO 8601 duration in milliseconds (a calendar duration counted from the budget's build). */
function durationMs(text: unknown, what: string, fromMs: number): number {
  let d;
  try {
    d = parseIsoDuration(String(text ?? '').trim());
  } catch {
    throw configError(`${what}: invalid ISO 8601 duration ${JSON.stringify(text)} (expected e.g. PT1M, PT1H, P1D).`);
  }
  if (d instanceof PyDuration) {
    const from = PyDateTime.fromDate(new Date(fromMs));
    return d.applyTo(from, 1).utcMs() - from.utcMs();
  }
  return Number(d.micros / 1000n);
}

/** Python's int() of a header value: surrounding blanks and an underscore between digits allowed, nothing else. */
function pythonInt(text: string): number {
  const t = text.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) throw new RuntimeError(`ValueError: invalid literal for int() with base 10: '${text}'`, 'system_error');
  return Number(t.replace(/_/g, ''));
}

/** Python's str(timedelta) of a wait: `H:MM:SS`, with `N days, ` in front when longer than a day. */
function pythonTimedelta(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(total / 86400);
  const rest = total % 86400;
  const hms = `${Math.floor(rest / 3600)}:${String(Math.floor((rest % 3600) / 60)).padStart(2, '0')}:${String(rest % 60).padStart(2, '0')}`;
  return days ? `${days} day${days === 1 ? '' : 's'}, ${hms}` : hms;
}
