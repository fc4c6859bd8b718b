// A minimal LSP client for the benchmark: spawns a server over stdio, answers the requests servers
// send to clients (configuration, registration), and times requests and diagnostics.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import rpc from 'vscode-languageserver-protocol/node';

const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = rpc;

export class BenchClient {
  /** @param {string[]} command the server command line; @param {object} settings answers to workspace/configuration */
  constructor(command, settings = {}) {
    this.child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.settings = settings;
    this.waiters = [];
    this.connection.onNotification('textDocument/publishDiagnostics', (params) => {
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.uri === params.uri && (w.version === undefined || params.version === undefined || params.version === w.version)) {
          this.waiters.splice(i, 1);
          w.resolve(params);
        }
      }
    });
    this.connection.onRequest('workspace/configuration', (params) => params.items.map((item) => lookup(this.settings, item.section)));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification(() => {});
    this.connection.listen();
  }

  async initialize(initializationOptions = {}) {
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      initializationOptions,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: {
          synchronization: { dynamicRegistration: true },
          completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { versionSupport: true },
        },
      },
    });
    await this.connection.sendNotification('initialized', {});
    await this.connection.sendNotification('workspace/didChangeConfiguration', { settings: this.settings });
  }

  waitDiagnostics(uri, version, timeoutMs = 120_000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version}`)), timeoutMs);
      this.waiters.push({
        uri,
        version,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  /** Opens a document; resolves with [milliseconds to its diagnostics, diagnostics]. */
  async open(uri, text) {
    const waiting = this.waitDiagnostics(uri, 1);
    const start = performance.now();
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const params = await waiting;
    return [performance.now() - start, params.diagnostics];
  }

  /** Applies one incremental edit; resolves with the milliseconds to the new version's diagnostics. */
  async edit(uri, version, range, text) {
    const waiting = this.waitDiagnostics(uri, version);
    const start = performance.now();
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    await waiting;
    return performance.now() - start;
  }

  /** Times one request; resolves with [milliseconds, result]. */
  async timed(method, params) {
    const start = performance.now();
    const result = await this.connection.sendRequest(method, params);
    return [performance.now() - start, result];
  }

  /** The server process's resident memory in MB (Linux /proc), or null where it cannot be read. */
  rssMb() {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
      return Number.isFinite(kb) ? kb / 1024 : null;
    } catch {
      return null;
    }
  }

  async stop() {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // The process is killed below either way.
    }
    // Give the server a moment to exit on its own (profilers write their output on exit).
    await new Promise((r) => {
      if (this.child.exitCode !== null) return r();
      const timer = setTimeout(r, 3000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        r();
      });
    });
    this.connection.dispose();
    this.child.kill();
  }
}

function lookup(settings, section) {
  if (!section) return settings;
  let v = settings;
  for (const part of section.split('.')) v = v?.[part];
  return v ?? null;
}
