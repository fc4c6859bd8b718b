// The demo API's route contract. The server core (demo/api/server.ts) parses each request and offers
// it to route modules in turn; a module answers it and returns true, or returns false to pass it on.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type DemoRequest = {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Header names lower-cased, as node:http gives them. */
  headers: IncomingMessage['headers'];
  /** The raw body text ('' when none). */
  body: string;
};

/** Mutable state shared by all routes of one running demo API (issued tokens, rotated refresh tokens, counters). */
export type DemoState = Record<string, unknown> & { baseUrl: string; now: () => Date };

export type RouteModule = (req: DemoRequest, res: ServerResponse, state: DemoState) => boolean | Promise<boolean>;
