// Size limits shared by the transport and the decoders (no imports, so both can depend on it).

/** Largest accepted response body, in bytes (after decompression, inflated gzip/zip data included): 20 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024 * 1024;
