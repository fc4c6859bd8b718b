// Test helper: spawns the shipped out/server.js over stdio and speaks the real protocol to it, or
// (`inProcess`) runs the server's source on an in-memory connection inside the test process.
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import {
  type RequestType,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  ExitNotification,
  CompletionRequest,
  HoverRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  CodeLensRequest,
  type CompletionItem,
  type CompletionList,
  type Hover,
  type LocationLink,
  type DocumentSymbol,
  type SymbolInformation,
  type CodeLens,
  type Position,
  type Range,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

export const SERVER_PATH = join(__dirname, '..', '..', 'out', 'server.js');

export class LspTestClient {
  private constructor(
    readonly connection: ProtocolConnection,
    /** Ends the server's transport (kills the process, or closes the in-memory streams). */
    private readonly endTransport: () => void,
    private readonly isAlive: () => boolean,
    /** False in process: the library ends the process on `exit`, which would end the test runner. */
    private readonly sendsExit: boolean,
    private readonly diagnostics: Map<string, PublishDiagnosticsParams[]>,
    private readonly waiters: Array<{ uri: string; resolve: (p: PublishDiagnosticsParams) => void; version?: number }>,
  ) {}

  /**
   * `env` adds environment variables to the server process (e.g. the sealing key); `completionItem`
   * replaces the completion item capabilities the client announces (e.g. `insertTextModeSupport`).
   */
  static async start(
    initializationOptions: Record<string, unknown> = {},
    env: Record<string, string> = {},
    completionItem?: Record<string, unknown>,
  ): Promise<LspTestClient> {
    const child = spawn(process.execPath, [SERVER_PATH, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    // The server logs failures to stderr; keep them visible without mixing them into the protocol.
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    return LspTestClient.connect(
      child.stdout!,
      child.stdin!,
      () => child.kill(),
      () => child.exitCode === null && child.signalCode === null,
      true,
      initializationOptions,
      completionItem,
    );
  }

  /**
   * The server started exactly as the extension starts it (client/src/serverProcess.ts): the sealing
   * key goes through a pipe, not the environment. `pid` is the server process's id.
   */
  static async startSealed(sealKey: string, initializationOptions: Record<string, unknown> = {}): Promise<LspTestClient & { pid: number }> {
    const { spawnLanguageServer } = await import('../../client/src/serverProcess');
    const child = spawnLanguageServer(SERVER_PATH, sealKey);
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const client = await LspTestClient.connect(
      child.stdout!,
      child.stdin!,
      () => child.kill(),
      () => child.exitCode === null && child.signalCode === null,
      true,
      initializationOptions,
    );
    return Object.assign(client, { pid: child.pid! });
  }

  /**
   * A server made in this process from the source (languageServer.ts) on a pair of in-memory
   * streams: each call gets its own server state, as each connection does.
   */
  static async inProcess(initializationOptions: Record<string, unknown> = {}): Promise<LspTestClient> {
    // Loaded here so the stdio tests do not pay for compiling the server's source.
    const { createConnection } = await import('vscode-languageserver/node');
    const { startLanguageServer } = await import('../../server/src/languageServer');
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    startLanguageServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)));
    let open = true;
    return LspTestClient.connect(
      toClient,
      toServer,
      () => {
        open = false;
        toServer.end();
        toClient.end();
      },
      () => open,
      false,
      initializationOptions,
    );
  }

  private static async connect(
    fromServer: NodeJS.ReadableStream,
    toServer: NodeJS.WritableStream,
    endTransport: () => void,
    isAlive: () => boolean,
    sendsExit: boolean,
    initializationOptions: Record<string, unknown>,
    completionItem: Record<string, unknown> = { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] },
  ): Promise<LspTestClient> {
    const connection = createProtocolConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
    const diagnostics = new Map<string, PublishDiagnosticsParams[]>();
    const waiters: Array<{ uri: string; resolve: (p: PublishDiagnosticsParams) => void; version?: number }> = [];
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = diagnostics.get(params.uri) ?? [];
      list.push(params);
      diagnostics.set(params.uri, list);
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i];
        if (w.uri === params.uri && (w.version === undefined || params.version === w.version)) {
          waiters.splice(i, 1);
          w.resolve(params);
        }
      }
    });
    connection.listen();
    const client = new LspTestClient(connection, endTransport, isAlive, sendsExit, diagnostics, waiters);
    await connection.sendRequest(InitializeRequest.type, {
      // In process there is no parent to watch (the library would poll it with a timer that keeps the tests alive).
      processId: sendsExit ? process.pid : null,
      rootUri: null,
      initializationOptions,
      capabilities: {
        textDocument: {
          completion: { completionItem },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Opens a document and resolves with the first diagnostics published for that version. */
  open(uri: string, text: string, version = 1, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const waiting = this.waitForDiagnostics(uri, version, timeoutMs);
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version, text },
    });
    return waiting;
  }

  /** Replaces the whole text of an open document and resolves with the diagnostics of the new version. */
  change(uri: string, text: string, version: number): Promise<PublishDiagnosticsParams> {
    const waiting = this.waitForDiagnostics(uri, version);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return waiting;
  }

  /** Applies range edits (incremental sync) and resolves with the diagnostics of the new version. */
  edit(uri: string, version: number, edits: Array<{ range: Range; text: string }>): Promise<PublishDiagnosticsParams> {
    const waiting = this.waitForDiagnostics(uri, version);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: edits,
    });
    return waiting;
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result = (await this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as
      | CompletionItem[]
      | CompletionList
      | null;
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async definition(uri: string, position: Position): Promise<LocationLink[]> {
    const result = await this.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
    return (result ?? []) as LocationLink[];
  }

  async symbols(uri: string): Promise<DocumentSymbol[]> {
    const result = (await this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as
      | DocumentSymbol[]
      | SymbolInformation[]
      | null;
    return (result ?? []) as DocumentSymbol[];
  }

  async codeLenses(uri: string): Promise<CodeLens[]> {
    return (await this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
  }

  /** Sends a custom request (its typed RequestType of protocol.ts, or a method name). */
  request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
  // Tests that send hostile params on purpose (or name the result type themselves) take this one.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<R>(method: string | RequestType<any, unknown, void>, params: unknown): Promise<R>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(method: string | RequestType<any, unknown, void>, params: unknown): Promise<unknown> {
    return typeof method === 'string' ? this.connection.sendRequest(method, params) : this.connection.sendRequest(method, params);
  }

  /** The versions of `uri` whose diagnostics were published so far, in order. */
  publishedVersions(uri: string): Array<number | undefined> {
    return (this.diagnostics.get(uri) ?? []).map((p) => p.version);
  }

  /** True while the server process is alive. */
  get alive(): boolean {
    return this.isAlive();
  }

  waitForDiagnostics(uri: string, version?: number, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms`)), timeoutMs);
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

  async stop(): Promise<void> {
    try {
      await this.connection.sendRequest(ShutdownRequest.type);
      if (this.sendsExit) await this.connection.sendNotification(ExitNotification.type);
    } finally {
      this.connection.dispose();
      this.endTransport();
    }
  }
}
