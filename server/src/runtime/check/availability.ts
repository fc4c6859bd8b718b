// One stream's availability as the reference's check decides it (CDK DefaultStream.check_availability):
// the first slice is made and read until its first record. No slice, or an HTTP failure (the CDK's
// AirbyteTracedException), makes the stream unavailable with the reference's wording; any other error
// is thrown for the check component to report.
import { RequestFailedError } from '../http/requester';
import type { ErrorResolution } from '../http/errorHandler';
import { buildStream } from '../testRead/retriever';
import type { ReadContext } from '../testRead/readContext';

type Obj = Record<string, unknown>;

export type Availability = { available: true } | { available: false; reason: string };

// The CDK's DEFAULT_ERROR_MAPPING texts (streams/http/error_handlers/default_error_mapping.py).
const REFERENCE_STATUS_TEXT: Record<number, string> = {
  400: 'HTTP Status Code: 400. Error: Bad request. Please check your request parameters.',
  401: 'HTTP Status Code: 401. Error: Unauthorized. Please ensure you are authenticated correctly.',
  403: "HTTP Status Code: 403. Error: Forbidden. You don't have permission to access this resource.",
  404: 'HTTP Status Code: 404. Error: Not found. The requested resource was not found on the server.',
  405: 'HTTP Status Code: 405. Error: Method not allowed. Please check your request method.',
  408: 'HTTP Status Code: 408. Error: Request timeout.',
  429: 'HTTP Status Code: 429. Error: Too many requests.',
  500: 'HTTP Status Code: 500. Error: Internal server error.',
  502: 'HTTP Status Code: 502. Error: Bad gateway.',
  503: 'HTTP Status Code: 503. Error: Service unavailable.',
  504: 'HTTP Status Code: 504. Error: Gateway timeout.',
};

/** Reads the stream's first slice up to its first record. Throws what is not an HTTP failure. */
export async function streamAvailability(stream: Obj, rc: ReadContext): Promise<Availability> {
  const name = String(stream.name ?? '');
  let first;
  try {
    const built = buildStream(stream, rc);
    const slices = built.slicer.slices();
    const next = await slices.next();
    if (next.done) return { available: false, reason: `Cannot attempt to connect to stream ${name} - no stream slices were found` };
    first = { built, slice: next.value };
  } catch (e) {
    const traced = tracedMessage(e);
    if (traced !== null) return { available: false, reason: traced };
    throw e;
  }
  try {
    for await (const page of first.built.readSlice(first.slice)) {
      if (page.error) throw page.error;
      if (page.records.length > 0) return { available: true };
    }
  } catch (e) {
    const traced = tracedMessage(e);
    if (traced !== null) return { available: false, reason: traced };
    throw e;
  }
  // "Successfully connected to stream X, but got 0 records." is still available.
  rc.log('INFO', `Successfully connected to stream ${name}, but got 0 records.`);
  return { available: true };
}

/** The message of the AirbyteTracedException the reference raises for a failed request, or null for other errors. */
function tracedMessage(error: unknown): string | null {
  // A failed job request of an AsyncRetriever is wrapped in the job's error: the request failure decides.
  let e = error;
  while (e instanceof Error && !(e instanceof RequestFailedError) && e.cause instanceof Error) e = e.cause;
  if (!(e instanceof RequestFailedError)) return null;
  const { request, response } = e.exchange;
  const resolution = (e.exchange as { resolution?: ErrorResolution }).resolution;
  const statusText = response ? (resolution?.message ?? REFERENCE_STATUS_TEXT[response.status] ?? null) : null;
  if (resolution?.action === 'FAIL') {
    return statusText ?? `'${request.method}' request to '${request.url}' failed with status code '${response?.status ?? ''}'.`;
  }
  // Retries exhausted: the reference wraps the last error's message.
  const last =
    statusText ??
    (response
      ? `Request to ${request.url} failed with failure type ${resolution?.failureType ?? 'system_error'}, response action ${resolution?.action ?? 'RETRY'}.`
      : e.message);
  return `Exhausted available request attempts. Please see logs for more details. Exception: ${last}`;
}
