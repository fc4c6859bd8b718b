// A request of a test read → a cURL command (one option per line, single-quoted for POSIX shells), for
// "Copy request as cURL". Pure: imports nothing, so the client and the webview use it too.

/** The request as the results view holds it (a StreamRead page's `request`). */
export type CurlSource = { url?: unknown; http_method?: unknown; method?: unknown; headers?: unknown; body?: unknown };

/** Quotes a word for sh/bash/zsh: single quotes, with each ' written as '\''. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The cURL command of a request; headers in their order, the body as sent (`--data-raw`). */
export function requestToCurl(request: CurlSource): string {
  const method = String(request.http_method ?? request.method ?? 'GET').toUpperCase();
  const body = request.body;
  const hasBody = body !== null && body !== undefined && body !== '';
  // curl sends GET by itself, and POST once it has a body: name any other method (or a GET with a body).
  const lines = [`curl ${method === 'GET' && !hasBody ? '' : `-X ${method} `}${shellQuote(String(request.url ?? ''))}`];
  const headers = request.headers && typeof request.headers === 'object' ? Object.entries(request.headers as Record<string, unknown>) : [];
  for (const [name, value] of headers) lines.push(`-H ${shellQuote(`${name}: ${String(value)}`)}`);
  if (hasBody) lines.push(`--data-raw ${shellQuote(typeof body === 'string' ? body : JSON.stringify(body))}`);
  return lines.join(' \\\n  ');
}
