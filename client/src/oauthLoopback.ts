// A one-shot HTTP listener on 127.0.0.1 that receives the OAuth redirect (code + state), checks the
// state and answers the browser with a short page. No vscode import: the unit tests drive it directly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started listener: its redirect URI, the code once it arrives, and a way to stop early. */
export type LoopbackReceiver = { redirectUri: string; code: Promise<string>; close(): void };

const PAGE = (title: string, text: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * Listens on `port` (0 = any free port) for `GET /callback`. The code promise resolves with the code of
 * the first redirect with the expected state, and rejects on a provider error (with that state) or the
 * time-out; requests without the expected state are ignored.
 */
export async function startLoopbackReceiver(
  expectedState: () => string | undefined,
  options: { port?: number; timeoutMs?: number } = {},
): Promise<LoopbackReceiver> {
  let resolveCode!: (code: string) => void;
  let rejectCode!: (e: Error) => void;
  const code = new Promise<string>((res, rej) => {
    resolveCode = res;
    rejectCode = rej;
  });
  code.catch(() => undefined); // the caller observes it; avoid an unhandled rejection when it never does
  let settled = false;
  const finish = (fn: () => void) => {
    if (!settled) {
      settled = true;
      fn();
      setImmediate(() => server.close());
    }
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const reply = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE(title, text));
    // Any local program can call this port: a request without the state VS Code sent is answered and
    // ignored, and the listener keeps waiting for the real redirect until its time-out (RFC 6749 §10.12).
    const state = url.searchParams.get('state');
    if (!state || state !== expectedState()) {
      reply(400, 'Authorization rejected', 'The state parameter does not match the request VS Code made, so this request was ignored.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      reply(400, 'Authorization failed', 'The provider refused the authorization. You can close this tab and try again from VS Code.');
      finish(() => rejectCode(new Error(`The provider refused the authorization (${error.slice(0, 80)}).`)));
      return;
    }
    const got = url.searchParams.get('code');
    if (!got) {
      reply(400, 'Authorization failed', 'The redirect carried no authorization code.');
      finish(() => rejectCode(new Error('The OAuth redirect carried no code.')));
      return;
    }
    reply(200, 'Authorization received', 'VS Code received the authorization. You can close this tab.');
    finish(() => resolveCode(got));
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(options.port ?? 0, '127.0.0.1', () => res());
  });
  const timer = setTimeout(
    () => finish(() => rejectCode(new Error('No OAuth redirect arrived in time; authorize again.'))),
    options.timeoutMs ?? 5 * 60_000,
  );
  code.finally(() => clearTimeout(timer)).catch(() => undefined);
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => finish(() => rejectCode(new Error('The authorization was cancelled.'))),
  };
}
