// Errors on demand: any request with `fail=<status>` (429, 500, 503, 401...) fails that way for its
// first `times` attempts (default 1) per `fail_key`, then passes on to the data routes. 429 and 503
// carry Retry-After (`retry_after`, default 1 second).
import type { DemoRequest, DemoState, RouteModule } from './types';
import { sendJson } from './dataRoutes';

/** Route module of on-demand failures (`fail`, `times`, `fail_key`, `retry_after` query parameters). */
export const faultRoutes: RouteModule = (req: DemoRequest, res, state: DemoState) => {
  const fail = req.query.get('fail');
  if (!fail) return false;
  const status = Number(fail);
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    sendJson(res, 400, { error: 'fail must be an HTTP error status (400-599)' });
    return true;
  }
  const times = Number(req.query.get('times') ?? '1');
  const key = `fault:${req.path}:${req.query.get('fail_key') ?? fail}`;
  const counts = (state.faultCounts ??= new Map<string, number>()) as Map<string, number>;
  const seen = counts.get(key) ?? 0;
  if (seen >= times) return false;
  counts.set(key, seen + 1);
  const headers: Record<string, string> = {};
  if (status === 429 || status === 503) headers['Retry-After'] = req.query.get('retry_after') ?? '1';
  const messages: Record<number, string> = { 401: 'token expired', 429: 'rate limit exceeded, slow down', 500: 'internal failure', 503: 'service unavailable' };
  sendJson(res, status, { error: messages[status] ?? `failure ${status}`, attempt: seen + 1 }, headers);
  return true;
};
