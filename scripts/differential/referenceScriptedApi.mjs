// A scripted API on 127.0.0.1 for reference-read fixtures (test/fixtures/reference-reads; the component fixtures use scriptedApi.mjs): the fixture
// lists, per "METHOD /path", the answers in order (the last one repeats). Used both to record what the
// reference CDK reads from it (recordReferenceReads.mjs) and to replay the same API to our runtime in
// test/unit/testRead/referenceReads.test.ts. An answer is {status, body, headers} or {networkError: true}
// (the connection is destroyed without a response).
import { createServer } from 'node:http';

export async function startScriptedApi(routes) {
  const requests = [];
  const served = new Map();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const key = `${req.method} ${url.pathname}`;
      requests.push({ method: req.method, url: req.url, body });
      const answers = routes[key];
      if (!answers) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: `no route for ${key}` }));
        return;
      }
      const n = served.get(key) ?? 0;
      served.set(key, n + 1);
      const answer = answers[Math.min(n, answers.length - 1)];
      if (answer.networkError) {
        req.socket.destroy();
        return;
      }
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) });
      res.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The fixture's value with {{ORIGIN}} replaced by the server's origin, and the reverse. */
export const withOrigin = (v, origin) => JSON.parse(JSON.stringify(v).split('{{ORIGIN}}').join(origin));
export const withoutOrigin = (v, origin) => JSON.parse(JSON.stringify(v).split(origin).join('{{ORIGIN}}'));
