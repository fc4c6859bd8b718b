// Hostile behaviours, mounted only in hostile mode: endless pagination, a 50 MB body, a stalled
// response, a redirect loop and a non-JSON body. They prove that a test read stays bounded.
import type { RouteModule } from './types';
import { sendJson } from './dataRoutes';
import { items } from './datasets';

/** Size of the /hostile/huge body. */
export const HUGE_BODY_BYTES = 50 * 1024 * 1024;

/** Route module of the hostile behaviours (mounted only with `hostile: true`). */
export const hostileRoutes: RouteModule = (req, res, state) => {
  switch (req.path) {
    case '/hostile/endless': {
      // Always a full page and always a next page, whatever is asked.
      const page = Number(req.query.get('page') ?? '1') || 1;
      const next = new URL('/hostile/endless', state.baseUrl);
      next.searchParams.set('page', String(page + 1));
      sendJson(res, 200, { data: items((page - 1) * 10, 10, Number.MAX_SAFE_INTEGER), next: next.toString() });
      return true;
    }
    case '/hostile/huge': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      res.write('{"data": [');
      const pump = () => {
        while (sent < HUGE_BODY_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end(']}');
      };
      res.on('error', () => undefined);
      pump();
      return true;
    }
    case '/hostile/stall':
      // Headers, half a body, then nothing: only a client timeout ends this.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"data": [');
      return true;
    case '/hostile/redirect-loop':
      res.writeHead(302, { Location: '/hostile/redirect-loop' });
      res.end();
      return true;
    case '/hostile/not-json':
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body>Service temporarily replaced by a maintenance page</body></html>');
      return true;
  }
  return false;
};
