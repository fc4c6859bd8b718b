// Reads the CDK's standard output as the Airbyte protocol defines it: one AirbyteMessage (JSON object
// with a `type`) per line. Only the protocol's fields are read, never the printing habits of one CDK
// build: key order, spacing and extra fields do not matter, and a line that is not a message is kept
// aside (a component may print to stdout).

/** The AirbyteMessage types this engine reads (the protocol has more; they are ignored). */
export type AirbyteLogMessage = { type: 'LOG'; log: { level: string; message: string; stack_trace?: string | null } };
export type AirbyteTraceMessage = {
  type: 'TRACE';
  trace: {
    type: string;
    emitted_at?: number;
    error?: { message?: string; internal_message?: string | null; stack_trace?: string | null; failure_type?: string | null };
  };
};
export type AirbyteRecordMessage = { type: 'RECORD'; record: { stream: string; data: Record<string, unknown>; emitted_at?: number } };
export type AirbyteControlMessage = {
  type: 'CONTROL';
  control: { type: string; emitted_at?: number; connector_config?: { config: Record<string, unknown> } };
};
export type AirbyteMessage = AirbyteLogMessage | AirbyteTraceMessage | AirbyteRecordMessage | AirbyteControlMessage;

/** The messages of a run's standard output, and what was not a message. */
export type ParsedOutput = { messages: AirbyteMessage[]; otherLines: string[] };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** One line as an AirbyteMessage of a type we read, or null. */
export function parseAirbyteMessage(line: string): AirbyteMessage | null {
  const text = line.trim();
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  switch (value.type) {
    case 'LOG':
      return isObject(value.log) && typeof value.log.message === 'string' ? (value as AirbyteLogMessage) : null;
    case 'TRACE':
      return isObject(value.trace) ? (value as AirbyteTraceMessage) : null;
    case 'RECORD':
      return isObject(value.record) && typeof value.record.stream === 'string' && isObject(value.record.data)
        ? (value as AirbyteRecordMessage)
        : null;
    case 'CONTROL':
      return isObject(value.control) ? (value as AirbyteControlMessage) : null;
    default:
      return null;
  }
}

/** Splits a whole standard output into messages and other lines (blank lines dropped). */
export function parseAirbyteOutput(stdout: string): ParsedOutput {
  const messages: AirbyteMessage[] = [];
  const otherLines: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const m = parseAirbyteMessage(line);
    if (m) messages.push(m);
    else otherLines.push(line);
  }
  return { messages, otherLines };
}

/** The connector config a CONNECTOR_CONFIG control message carries (a rotated token, a migrated config), or null. */
export function controlConfig(m: AirbyteMessage): Record<string, unknown> | null {
  if (m.type !== 'CONTROL' || m.control.type !== 'CONNECTOR_CONFIG') return null;
  const config = m.control.connector_config?.config;
  return isObject(config) ? config : null;
}
