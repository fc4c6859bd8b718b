// Reads the extension's settings (all under `airbyte.*`) into one typed object, with the same defaults
// package.json declares, so no other module touches the configuration API directly.
import * as vscode from 'vscode';

/** Everything the client reads from the `airbyte.*` settings. */
export type AirbyteSettings = {
  manifestGlobs: string[];
  limits: { maxRecords: number; maxPagesPerSlice: number; maxSlices: number };
  requestTimeoutSeconds: number;
  maxResponseBytes: number;
  logLevel: 'error' | 'warn' | 'info' | 'debug';
};

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

function positiveInt(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), max) : fallback;
}

/** The current settings; invalid values fall back to the documented defaults. */
export function readSettings(): AirbyteSettings {
  const c = vscode.workspace.getConfiguration('airbyte');
  const globs = c.get<unknown>('manifestGlobs');
  const level = c.get<string>('logLevel', 'info');
  return {
    manifestGlobs: Array.isArray(globs) ? globs.filter((g): g is string => typeof g === 'string' && g.length > 0) : ['**/manifest.yaml'],
    limits: {
      // A repository's workspace settings may lower these, never lift them past the maximums
      // package.json declares; the language server enforces the same ones (server/src/readBounds.ts).
      maxRecords: positiveInt(c.get('testRead.maxRecords'), 100, 5000),
      maxPagesPerSlice: positiveInt(c.get('testRead.maxPagesPerSlice'), 5, 100),
      maxSlices: positiveInt(c.get('testRead.maxSlices'), 5, 100),
    },
    requestTimeoutSeconds: positiveInt(c.get('http.requestTimeoutSeconds'), 30, 120),
    maxResponseBytes: positiveInt(c.get('http.maxResponseBytes'), 10 * 1024 * 1024, 64 * 1024 * 1024),
    logLevel: (LOG_LEVELS as readonly string[]).includes(level) ? (level as AirbyteSettings['logLevel']) : 'info',
  };
}
