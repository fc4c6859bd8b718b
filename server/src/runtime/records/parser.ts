// The shape every byte-level parser has (rawParsers.ts, csvParser.ts, gzipParser.ts), in a module
// of its own so the parsers need not import the factory that builds them.

/** Parses a body's bytes into elements; `limit` caps the bytes any inflation step may produce. */
export type Parser = { name: string; parse(bytes: Uint8Array, limit: number): unknown[] };
