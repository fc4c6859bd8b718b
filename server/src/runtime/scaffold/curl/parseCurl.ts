// A pasted cURL command → RequestSketch, through curlconverter (its bash parser is WebAssembly, see
// bashParser.ts). Only the first URL of the first command is used; what cannot become a declarative
// stream (files, multipart forms, digest auth) is reported, never guessed.
import { parse as parseCurl } from 'curlconverter/dist/src/parse.js';
import { loadBashParser } from './bashParser';
import type { RequestSketch } from './requestSketch';

/** The request, or `error` saying what to change in the command; `warnings` are things it ignored. */
export type ParsedCurl = { request?: RequestSketch; error?: string; warnings: string[] };

/** Parses one cURL command (line continuations and quoting as bash reads them). Never throws. */
export async function parseCurlCommand(command: string): Promise<ParsedCurl> {
  const text = command.trim();
  if (!/^curl\b/.test(text))
    return {
      error: 'The text does not start with `curl`: paste a whole cURL command (for example from the browser\'s "Copy as cURL").',
      warnings: [],
    };
  try {
    await loadBashParser();
  } catch (e) {
    return { error: `The shell parser could not be loaded: ${(e as Error).message}`, warnings: [] };
  }
  const warned: [string, string][] = [];
  let parsed;
  try {
    parsed = parseCurl(text, undefined, warned);
  } catch (e) {
    return { error: `The cURL command could not be read: ${(e as Error).message}`, warnings: [] };
  }
  const warnings = warned.map(([, message]) => message);
  const first = parsed[0];
  const target = first?.urls[0];
  if (!first || !target) return { error: 'The cURL command has no URL.', warnings };
  if (parsed.length > 1 || first.urls.length > 1) warnings.push('The command holds more than one request; only the first URL is used.');
  if (first.multipartUploads)
    return { error: 'Multipart form uploads (-F) cannot become a stream: declarative streams send JSON or form-encoded bodies.', warnings };
  if (first.dataReadsFile)
    return { error: `The body is read from a file (${first.dataReadsFile}); paste the body itself with --data-raw.`, warnings };

  const url = String(target.queryList ? target.urlWithoutQueryList : target.url);
  let query: [string, string][] = (target.queryList ?? []).map(([k, v]) => [String(k), String(v)]);
  let base = url;
  if (!target.queryList && url.includes('?')) {
    // curlconverter leaves a query it cannot split losslessly in the URL; URLSearchParams still reads it.
    base = url.slice(0, url.indexOf('?'));
    query = [...new URLSearchParams(url.slice(url.indexOf('?') + 1))];
  }
  const request: RequestSketch = {
    method: String(target.method).toUpperCase(),
    url: withScheme(base),
    query,
    headers: first.headers.headers
      .filter((h): h is [(typeof h)[0], NonNullable<(typeof h)[1]>] => h[1] !== null)
      .map(([k, v]) => [String(k), String(v)]),
    origin: 'the cURL command',
  };
  if (first.data !== undefined) request.body = String(first.data);
  if (target.auth) {
    if (first.authType !== 'basic')
      return {
        error: `The command uses ${first.authType} authentication; declarative manifests support basic, bearer and API keys.`,
        warnings,
      };
    request.basicAuth = { user: String(target.auth[0]), password: String(target.auth[1]) };
  }
  // curlconverter already turns --oauth2-bearer into an Authorization header; add it only if it did not.
  if (first.oauth2Bearer && !request.headers.some(([h]) => /^authorization$/i.test(h)))
    request.headers.push(['Authorization', `Bearer ${String(first.oauth2Bearer)}`]);
  return { request, warnings };
}

/** curl assumes http:// for a URL without a scheme; a manifest needs it written. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
}
