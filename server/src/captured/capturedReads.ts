// The captured reads: what the last test read of each stream of each manifest returned, kept in
// memory so completion, hover and the paginator lens can answer from the API's real answers. Fed by
// every `airbyte/testRead` (a cassette replay goes through the same request) and by
// `airbyte/captureRead`. Everything kept is already masked: the runtime masks the StreamRead, and
// the config is masked here with the runtime's own masker before it is kept.
import type { PaginationTrace, StreamRead, StreamReadPage } from '../runtime';
import { SecretMasker } from '../runtime';
import { secretPaths } from '../runtime';
import { credentialConfigPaths } from '../runtime';
import { MASK } from '../runtime';
import { setOwn } from '../runtime';

/** One page of a captured read, flattened out of its slice. */
export type CapturedPage = {
  /** 0-based slice and page-within-slice of the read. */
  slice: number;
  page: number;
  /** The slice descriptor (partition and cursor keys); {} for an unpartitioned stream. */
  sliceDescriptor: Record<string, unknown>;
  status: number | null;
  /** The response body as received (masked); "" when there was no response. */
  bodyText: string;
  /** Response headers, names as the server sent them. */
  headers: Record<string, string>;
  records: Record<string, unknown>[];
  /** The runtime's pagination trace of this page (the language server asks for it), or null. */
  trace: PaginationTrace | null;
};

/** The last read of one stream. */
export type CapturedRead = {
  uri: string;
  streamName: string;
  /** When the read was captured (ms since the epoch). */
  capturedAt: number;
  pages: CapturedPage[];
  /** Pages of the read that were not kept (the bounds below); the kept ones are the latest. */
  droppedPages: number;
  /** The read's config with every secret masked, or null when none was given with the read. */
  config: Record<string, unknown> | null;
  /** Approximate size kept, in UTF-16 code units of the JSON texts. */
  size: number;
};

/** Bounds of the store; docs/editor.md "From the last read" documents them. */
export type CaptureBounds = {
  /** Pages kept per captured read (the latest). */
  maxPagesPerRead: number;
  /** Size kept per captured read. */
  maxSizePerRead: number;
  /** Size kept in all: the oldest captures are dropped first. */
  maxSizeTotal: number;
};

export const DEFAULT_CAPTURE_BOUNDS: CaptureBounds = { maxPagesPerRead: 50, maxSizePerRead: 8_000_000, maxSizeTotal: 32_000_000 };

/** The captured reads of one language server. */
export class CapturedReads {
  /** Insertion order is capture order: the first entry is the oldest. */
  private readonly reads = new Map<string, CapturedRead>();
  private total = 0;
  /** Bumped on every change, so views derived from the captures can be cached. */
  generation = 0;

  constructor(private readonly bounds: CaptureBounds = DEFAULT_CAPTURE_BOUNDS) {}

  /**
   * Keeps a read of `streamName` of the manifest `uri`, replacing the previous one. `config` is the
   * plain config of the read with the resolved manifest: only a copy masked by that manifest's rules
   * (spec secrets and credentials its authenticators and requesters use) is kept.
   */
  capture(
    uri: string,
    streamName: string,
    read: StreamRead,
    config?: { value: Record<string, unknown>; manifest: unknown } | null,
  ): CapturedRead {
    const pages = flattenPages(read);
    let dropped = 0;
    let size = pages.reduce((n, p) => n + pageSize(p), 0);
    while (pages.length > 1 && (pages.length > this.bounds.maxPagesPerRead || size > this.bounds.maxSizePerRead)) {
      size -= pageSize(pages.shift()!);
      dropped++;
    }
    const masked = config ? maskedConfig(config.value, config.manifest) : null;
    const captured: CapturedRead = { uri, streamName, capturedAt: Date.now(), pages, droppedPages: dropped, config: masked, size };
    this.drop(keyOf(uri, streamName));
    this.reads.set(keyOf(uri, streamName), captured);
    this.total += size;
    // The oldest captures go first; the one just made always stays.
    for (const [key, old] of this.reads) {
      if (this.total <= this.bounds.maxSizeTotal || old === captured) break;
      this.drop(key);
    }
    this.generation++;
    return captured;
  }

  /** The captured read of a stream, or undefined. */
  get(uri: string, streamName: string): CapturedRead | undefined {
    return this.reads.get(keyOf(uri, streamName));
  }

  /** True when some stream of `uri` has a captured read (features skip all work otherwise). */
  has(uri: string): boolean {
    for (const read of this.reads.values()) if (read.uri === uri) return true;
    return false;
  }

  /** The captured reads of `uri`, by stream name. */
  forUri(uri: string): Map<string, CapturedRead> {
    const out = new Map<string, CapturedRead>();
    for (const read of this.reads.values()) if (read.uri === uri) out.set(read.streamName, read);
    return out;
  }

  /** Forgets the captures of `uri` (one stream, or all). */
  clear(uri: string, streamName?: string): void {
    for (const [key, read] of [...this.reads])
      if (read.uri === uri && (streamName === undefined || read.streamName === streamName)) this.drop(key);
    this.generation++;
  }

  /** Total size kept (for tests and the bench). */
  get size(): number {
    return this.total;
  }

  private drop(key: string): void {
    const old = this.reads.get(key);
    if (!old) return;
    this.total -= old.size;
    this.reads.delete(key);
  }
}

function keyOf(uri: string, streamName: string): string {
  return `${uri}\u0000${streamName}`;
}

function pageSize(p: CapturedPage): number {
  return p.bodyText.length + JSON.stringify(p.records).length + JSON.stringify(p.headers).length;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The pages of a StreamRead in read order, each with its slice's descriptor. */
function flattenPages(read: StreamRead): CapturedPage[] {
  const pages: CapturedPage[] = [];
  const slices = Array.isArray(read?.slices) ? read.slices : [];
  slices.forEach((slice, s) => {
    // The reference writes "{}" (a string) for an unpartitioned stream.
    const descriptor = isMap(slice.slice_descriptor) ? slice.slice_descriptor : {};
    (Array.isArray(slice.pages) ? slice.pages : []).forEach((page: StreamReadPage, p) => {
      pages.push({
        slice: s,
        page: p,
        sliceDescriptor: descriptor,
        status: page.response?.status ?? null,
        bodyText: typeof page.response?.body === 'string' ? page.response.body : '',
        headers: isMap(page.response?.headers) ? (page.response!.headers as Record<string, string>) : {},
        records: Array.isArray(page.records) ? page.records.filter(isMap) : [],
        trace: traceOf(page.pagination_trace),
      });
    });
  });
  return pages;
}

function traceOf(v: unknown): PaginationTrace | null {
  if (!isMap(v)) return null;
  return {
    token_in: v.token_in ?? null,
    token_out: v.token_out ?? null,
    record_count: typeof v.record_count === 'number' ? v.record_count : 0,
    next_requested: v.next_requested === true,
    stop_reason: typeof v.stop_reason === 'string' ? v.stop_reason : null,
  };
}

/**
 * A copy of the config with every secret of the resolved `manifest` masked wherever it appears (the
 * runtime's masker: the same rule as the StreamRead's, so values marked `airbyte_secret` and values an
 * authenticator or a requester uses as a credential), those properties themselves set to `****`
 * whatever their length (the masker leaves values too short to search for), and the runtime's
 * private `__` keys left out.
 */
export function maskedConfig(config: Record<string, unknown>, manifest: unknown): Record<string, unknown> {
  const root = isMap(manifest) ? manifest : {};
  const masker = new SecretMasker();
  masker.addFromManifest(root, config);
  const kept = Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('__')));
  const spec = root.spec;
  const connectionSpec = isMap(spec) ? spec.connection_specification : undefined;
  const paths = [...secretPaths(connectionSpec), ...credentialConfigPaths(root)];
  return replaceAtPaths(masker.maskValue(structuredClone(kept)), paths) as Record<string, unknown>;
}

/** `node` with the value at each path (`*` matching any key or index) replaced by the mask. */
function replaceAtPaths(node: unknown, paths: string[][]): unknown {
  if (!paths.length || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((item) => replaceAtPaths(item, paths));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const matching = paths.filter((p) => p[0] === key || p[0] === '*');
    setOwn(
      out,
      key,
      matching.some((p) => p.length === 1) && value !== null && value !== undefined
        ? MASK
        : replaceAtPaths(
            value,
            matching.map((p) => p.slice(1)),
          ),
    );
  }
  return out;
}
