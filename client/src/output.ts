// The extension's single output channel ("Airbyte Manifest"), shared by the client and the language
// server, with the `airbyte.logLevel` filter applied. Callers must never pass secret values here.
import * as vscode from 'vscode';
import type { AirbyteSettings } from './settings';

const ORDER: Record<AirbyteSettings['logLevel'], number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** A leveled logger over one output channel; also keeps the text so the e2e secret-safety test can read it. */
export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly lines: string[] = [];
  constructor(private level: AirbyteSettings['logLevel']) {
    this.channel = vscode.window.createOutputChannel('Airbyte Manifest', { log: true });
  }
  setLevel(level: AirbyteSettings['logLevel']): void {
    this.level = level;
  }
  error(message: string): void {
    this.write('error', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  info(message: string): void {
    this.write('info', message);
  }
  debug(message: string): void {
    this.write('debug', message);
  }
  /** Everything written so far, including what the language client appended. */
  text(): string {
    return this.lines.join('\n');
  }
  /** The channel for the language client: the same channel, recording what the client writes as well. */
  recordingChannel(): vscode.LogOutputChannel {
    const recorded = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);
    return new Proxy(this.channel, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver);
        if (typeof prop !== 'string' || typeof value !== 'function') return value;
        if (prop === 'dispose') return () => undefined; // the extension, not the client, owns the channel
        if (!recorded.has(prop)) return value.bind(target);
        return (...args: unknown[]) => {
          this.lines.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
  private write(level: AirbyteSettings['logLevel'], message: string): void {
    if (ORDER[level] > ORDER[this.level]) return;
    this.lines.push(`[${level}] ${message}`);
    this.channel[level](message);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
