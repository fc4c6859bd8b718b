// HAR (HTTP Archive 1.2) text → its entries as RequestSketches with their recorded responses. Only
// what a stream can be made of is kept: the request line, headers, query, text body, response body.
import type { RequestSketch } from './requestSketch';

/** One entry, summarised for a picker, with its request. */
export type HarEntry = { index: number; method: string; url: string; status: number; mimeType: string; request: RequestSketch };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The entries, or an error saying what is wrong with the file. Never throws. */
export function readHarEntries(text: string): { entries: HarEntry[]; error?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { entries: [], error: `The file is not JSON: ${(e as Error).message}` };
  }
  const entries = obj(obj(json)?.log)?.entries;
  if (!Array.isArray(entries)) return { entries: [], error: 'The file is not a HAR: it has no log.entries list.' };
  const out: HarEntry[] = [];
  entries.forEach((raw, index) => {
    const request = obj(obj(raw)?.request);
    const response = obj(obj(raw)?.response);
    const fullUrl = str(request?.url);
    if (!request || !/^https?:\/\//i.test(fullUrl)) return;
    const q = fullUrl.indexOf('?');
    const url = q === -1 ? fullUrl : fullUrl.slice(0, q);
    const hash = url.indexOf('#');
    const content = obj(response?.content);
    const body = obj(request.postData);
    // The query is read from the URL itself: HAR's queryString list is decoded differently by browsers.
    const query = q === -1 ? [] : [...new URLSearchParams(fullUrl.slice(q + 1).split('#')[0])];
    const sketch: RequestSketch = {
      method: str(request.method).toUpperCase() || 'GET',
      url: hash === -1 ? url : url.slice(0, hash),
      query,
      headers: list(request.headers)
        .map((h) => [str(obj(h)?.name), str(obj(h)?.value)] as [string, string])
        .filter(([n]) => n !== ''),
      origin: `HAR entry ${index + 1}`,
      response: { status: Number(response?.status ?? 0), mimeType: str(content?.mimeType), text: responseText(content) },
    };
    const postText = str(body?.text);
    if (postText) sketch.body = postText;
    out.push({
      index,
      method: sketch.method,
      url: fullUrl,
      status: sketch.response!.status,
      mimeType: sketch.response!.mimeType ?? '',
      request: sketch,
    });
  });
  return { entries: out };
}

/** The response body as text (HAR stores binary and sometimes JSON as base64). */
function responseText(content: Json | undefined): string | undefined {
  const text = content?.text;
  if (typeof text !== 'string') return undefined;
  return content?.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}
