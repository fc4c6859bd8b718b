// Replaying a cassette: a fetch that never touches the network. A request is matched on method, URL and
// body after masking it the way the cassette was masked; repeated requests (async-job polls) get the
// recorded responses in order. A request the cassette does not hold fails, naming it.
import { RuntimeError } from '../errors';
import type { FetchFunction } from '../http/transport';
import { TransportError } from '../http/transport';
import { bodyTextOf, requestKey, toHttpResponse, type Cassette, type CassetteExchange } from './cassette';
import type { CassetteMasker } from './cassetteMasker';

/** A request of the read that the cassette could not answer. */
export type ReplayMiss = { method: string; url: string; reason: string };

export class CassetteReplayer {
  private readonly queues = new Map<string, CassetteExchange[]>();
  private readonly recordedCount = new Map<string, number>();
  private readonly urls = new Set<string>();
  readonly misses: ReplayMiss[] = [];

  constructor(
    cassette: Cassette,
    private readonly masker: CassetteMasker,
    private readonly name: string,
  ) {
    for (const x of cassette.exchanges) {
      const key = requestKey(x.request.method, x.request.url, bodyTextOf(x.request.body));
      const q = this.queues.get(key) ?? [];
      q.push(x);
      this.queues.set(key, q);
      this.recordedCount.set(key, q.length);
      this.urls.add(`${x.request.method.toUpperCase()} ${x.request.url}`);
    }
  }

  /** The fetch answering from the cassette. */
  fetch(): FetchFunction {
    return async (req) => {
      const url = this.masker.maskText(req.url);
      const body = req.body === null ? null : this.masker.maskText(req.body);
      const key = requestKey(req.method, url, body);
      const next = this.queues.get(key)?.shift();
      if (!next) {
        const recorded = this.recordedCount.get(key) ?? 0;
        const reason =
          recorded > 0
            ? `the cassette holds ${recorded} exchange${recorded === 1 ? '' : 's'} for it and the read asked for another`
            : this.urls.has(`${req.method.toUpperCase()} ${url}`)
              ? 'the cassette holds this URL only with a different request body'
              : 'the cassette holds no exchange for it';
        this.misses.push({ method: req.method.toUpperCase(), url, reason });
        // The requester may retry this like a network error; every attempt misses the same way.
        throw new RuntimeError(
          `Replay of ${this.name}: no recorded response for ${req.method.toUpperCase()} ${url}: ${reason}.`,
          'config_error',
        );
      }
      if (!next.response) throw new TransportError(next.error?.message ?? 'Recorded network failure.', next.error?.code ?? 'ENETWORK');
      return toHttpResponse(next.response);
    };
  }

  /** Exchanges recorded but never asked for. */
  unused(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }
}
