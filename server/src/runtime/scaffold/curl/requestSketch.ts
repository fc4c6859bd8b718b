// The one shape every source of a request (a cURL command, a HAR entry) is reduced to before a stream
// is derived from it. Pure data; nothing here parses or renders.

/** An HTTP request as the author captured it, with its credentials still in clear (never logged). */
export type RequestSketch = {
  /** Upper-case method. */
  method: string;
  /** Scheme, host and path, without the query string. */
  url: string;
  /** Query parameters in order, duplicates kept. */
  query: [string, string][];
  /** Headers in order, names as written. */
  headers: [string, string][];
  /** The body as sent, or undefined when there is none. */
  body?: string;
  /** `-u user:password` (or the URL's user info). */
  basicAuth?: { user: string; password: string };
  /** Where the request came from, for the YAML comments ("cURL", "HAR entry 3"). */
  origin: string;
  /** A recorded response (HAR only): its status and body text. */
  response?: { status: number; mimeType?: string; text?: string };
};
