// What a scaffolder (OpenAPI, cURL, HAR) inferred about a connector, before it is written as a
// manifest: plain data where every guess carries `why`, the short reason the YAML comment shows.
// Shared by every scaffolder; nothing here knows where the guesses came from.

/** A value and what it was inferred from (one line, written as a YAML comment above it). */
export type Noted<T> = { value: T; why: string };

/** One input of the connector's spec (`spec.connection_specification.properties`). */
export type SpecInput = {
  /** The config key, snake_case (`api_key`). */
  name: string;
  title: string;
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** Marked `airbyte_secret: true` (masked in the UI and in logs). */
  secret?: boolean;
  required: boolean;
  description?: string;
  default?: string | number | boolean;
  enum?: string[];
  /** JSON Schema `format` (`date-time` for a start date). */
  format?: string;
  /** What the input was inferred from (becomes the comment above it). */
  why: string;
};

/** A manifest component (a plain JSON object with `type`) and what it was inferred from. */
export type NotedComponent = Noted<Record<string, unknown>>;

/** One stream to write. */
export type StreamDraft = {
  name: string;
  /** Where the stream came from (`GET /users (listUsers)`): the comment above the stream. */
  origin: string;
  /** The request path, appended to the base URL; may hold `{{ … }}` templates. */
  path: string;
  httpMethod: 'GET' | 'POST';
  /** Fixed query parameters (values may be templates). */
  requestParameters?: Noted<Record<string, string>>;
  fieldPath: Noted<string[]>;
  primaryKey?: Noted<string[]>;
  paginator?: NotedComponent;
  /** The JSON schema of one record (written under `schemas:` and loaded inline). */
  schema?: Noted<Record<string, unknown>>;
  /** A SubstreamPartitionRouter component (its parent streams referenced by name, see `parentStreams`). */
  partitionRouter?: NotedComponent;
  /** A DatetimeBasedCursor component. */
  incrementalSync?: NotedComponent;
};

/** Everything a manifest is written from. */
export type ConnectorDraft = {
  /** Lines of the comment that opens the file (what it was generated from). */
  header: string[];
  urlBase: Noted<string>;
  authenticator?: NotedComponent;
  /** Headers and query parameters every request sends (further API keys, say). */
  requestHeaders?: Noted<Record<string, string>>;
  requestParameters?: Noted<Record<string, string>>;
  inputs: SpecInput[];
  streams: StreamDraft[];
  /** Streams the check reads (the first stream when absent). */
  checkStreams?: string[];
};

/** Adds an input unless one with that name is there already; returns the name. */
export function addInput(inputs: SpecInput[], input: SpecInput): string {
  if (!inputs.some((i) => i.name === input.name)) inputs.push(input);
  return input.name;
}

/** A config reference in a template: `{{ config['name'] }}`. */
export function configRef(name: string): string {
  return `{{ config['${name.replace(/'/g, "\\'")}'] }}`;
}
