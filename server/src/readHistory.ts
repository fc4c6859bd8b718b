// What the language server remembers of past test reads for the cassette commands (docs/cassettes.md):
// per manifest and stream, the masked cassette of the last recorded read and the records of the last
// two reads ("Compare with Previous Read"). Everything kept here is already masked (the runtime masks
// the StreamRead, the recorder masks the cassette); the config of a read is never kept. Bounded: a
// fixed number of streams, the least recently read forgotten first; each read is bounded by its limits.
import type { Cassette } from './runtime';
import type { Expectation } from './runtime';

/** One read as a comparison side: its expectation (records, inferred schema, primary key) and where it came from. */
export type ReadSnapshot = {
  expectation: Expectation;
  /** ISO time the read ended. */
  at: string;
  /** The cassette's name when the read was a replay, null for a read against the API. */
  replayedFrom: string | null;
};

type StreamHistory = {
  cassette: { cassette: Cassette; expectation: Expectation } | null;
  current: ReadSnapshot | null;
  previous: ReadSnapshot | null;
};

/** How many (manifest, stream) pairs are remembered. */
export const MAX_REMEMBERED_STREAMS = 32;

export class ReadHistory {
  private readonly streams = new Map<string, StreamHistory>();

  constructor(private readonly capacity = MAX_REMEMBERED_STREAMS) {}

  private entry(uri: string, stream: string): StreamHistory {
    const key = `${uri}#${stream}`;
    const found = this.streams.get(key) ?? { cassette: null, current: null, previous: null };
    // Re-inserted so iteration order is least recently used first.
    this.streams.delete(key);
    this.streams.set(key, found);
    while (this.streams.size > this.capacity) this.streams.delete(this.streams.keys().next().value as string);
    return found;
  }

  /** Records a finished read: it becomes the current one, the current one the previous. */
  addRead(uri: string, stream: string, snapshot: ReadSnapshot): void {
    const h = this.entry(uri, stream);
    h.previous = h.current;
    h.current = snapshot;
  }

  /** Keeps the cassette of a recorded read with the expectation of that same read. */
  setCassette(uri: string, stream: string, cassette: Cassette, expectation: Expectation): void {
    this.entry(uri, stream).cassette = { cassette, expectation };
  }

  cassette(uri: string, stream: string): { cassette: Cassette; expectation: Expectation } | null {
    return this.streams.get(`${uri}#${stream}`)?.cassette ?? null;
  }

  reads(uri: string, stream: string): { current: ReadSnapshot | null; previous: ReadSnapshot | null } {
    const h = this.streams.get(`${uri}#${stream}`);
    return { current: h?.current ?? null, previous: h?.previous ?? null };
  }
}
