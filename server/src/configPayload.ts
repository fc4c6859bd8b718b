// The shape of a config inside a custom message (protocol.ts seals and opens it), in a module of its
// own so the message modules (protocol.ts, incrementalProtocol.ts) need not import each other.
export type SealedConfig = { $sealed: string };
/** A config in a message: sealed by the extension, plain from other clients. */
export type ConfigPayload = SealedConfig | Record<string, unknown>;
