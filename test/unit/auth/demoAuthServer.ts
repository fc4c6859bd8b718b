// The demo API (demo/api/server.ts) with its authentication routes mounted and a clock the test
// controls. `failPath` answers 500 (fault routes) so tests can make a data request fail after authenticating.
import { startDemoApi } from '../../../demo/api/server';
import { authRoutes } from '../../../demo/api/authRoutes';
import type { DemoState } from '../../../demo/api/types';

export type DemoAuthServer = {
  baseUrl: string;
  state: DemoState;
  failPath: string;
  advance(seconds: number): void;
  now(): Date;
  close(): Promise<void>;
};

/**
 * Starts the demo API on 127.0.0.1 (free port). The clock starts at `start` and only moves through
 * advance(); with `start: null` it is the real clock shifted by advance().
 */
export async function startDemoAuthServer(start: string | null = '2024-05-01T12:00:00Z'): Promise<DemoAuthServer> {
  let t = start === null ? 0 : Date.parse(start);
  const now = () => new Date(start === null ? Date.now() + t : t);
  const api = await startDemoApi({ routes: [authRoutes], now });
  return {
    baseUrl: api.url,
    state: api.state,
    failPath: '/offset/items?fail=500&times=1000',
    advance: (seconds) => (t += seconds * 1000),
    now,
    close: () => api.close(),
  };
}
