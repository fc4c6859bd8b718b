// The language server on one connection: the only module that touches `connection`. It declares
// capabilities, routes requests to feature functions, owns the document lifecycle and debounces
// validation. All state lives in the object made per connection (so tests can run servers in
// process, several at once). Every handler is guarded: a failing feature logs and answers
// "nothing", it never ends the process.
import {
  CodeActionKind,
  ErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
} from 'vscode-languageserver/node';
// Imported, not read from the global: Node loads the global `performance` on its first use, and that
// first use would be the first open of a manifest (3 ms of its time, measured in its CPU profile).
import { performance } from 'node:perf_hooks';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments, type ManifestDocument } from './documents';
import { provideDiagnostics } from './features/diagnostics';
import { warmUpServer } from './warmUp';
import { handleTestRead } from './testReadHandler';
import type { OpenManifestLookup } from './requestInputs';
import { handleCassetteSummary, handleCompareReads, handleReadCassette } from './cassetteReadHandler';
import { ReadHistory } from './readHistory';
import { handleResolveStreams } from './resolveStreamsHandler';
import { handleCheckConnection } from './checkConnectionHandler';
import { CheckConnectionRequest, type CheckConnectionParams } from './protocol';
import { handleOAuthConsent, handleOAuthExchange } from './oauthHandler';
import { handleInferredSchemaEdit } from './inferredSchemaHandler';
import { handleIncrementalCheck, handleRunAllStreams, handleStreamCursor } from './incrementalHandlers';
import { captureRead, handleCaptureRead } from './captureReadHandler';
import { CapturedReads } from './captured/capturedReads';
import { providePaginatorLenses } from './features/paginatorLens';
import { provideDefinition } from './features/definition';
import { provideDocumentSymbols } from './features/symbols';
import { provideCodeLenses } from './features/codeLens';
import { provideIncrementalLenses } from './features/incrementalLenses';
import { provideTemplateInlayHints, type PageSelection } from './features/templateInlayHints';
import { provideCodeActions } from './features/codeActions';
import { APPLY_CDK_MIGRATIONS_KIND, provideMigrationActions } from './features/cdkMigrations';
import { VERSION_BUMP_KIND, provideVersionBumpActions } from './features/versionBump';
import { provideExtractActions } from './features/extractDefinition';
import { provideInlineActions } from './features/inlineReference';
import { prepareDefinitionRename, renameDefinition } from './features/renameDefinition';
import { provideStreamList } from './features/streams';
import { provideSpec } from './features/spec';
import { provideCompletion, COMPLETION_TRIGGER_CHARACTERS, type FeatureContext } from './features/completion';
import { clientSupportsAsIs, type InsertionSupport } from './features/completionLayout';
import { provideEmptyReadHints } from './features/emptyReadHint';
import { skeletonLines } from './features/manifestSkeleton';
import { provideHover } from './features/hover';
import { provideReferences } from './features/findReferences';
import { catalogIndex } from './features/catalogIndex';
import { primeComponentPaths } from './features/componentPath';
import { validationIfDone } from './documentValidation';
import { provideResolvedManifest } from './features/resolvedManifest';
import { locateStreamComponent } from './features/streamComponents';
import { provideSchemaDifferences } from './features/schemaDifferences';
import { positionToOffset, rangeToSpan, spanEditsToWorkspaceEdit, spanToRange } from './convert';
import {
  ConfigUpdateNotification,
  GetSpecRequest,
  InferredSchemaEditRequest,
  ListStreamsRequest,
  OAuthConsentRequest,
  OAuthExchangeRequest,
  ResolvedManifestRequest,
  ResolveStreamsRequest,
  TestReadProgressNotification,
  TestReadRequest,
  ComponentLocationRequest,
  SchemaDifferencesRequest,
  CaptureReadRequest,
  ClearCapturedReadsRequest,
  type ComponentLocationParams,
  type SchemaDifferencesParams,
  type CaptureReadParams,
  type ClearCapturedReadsParams,
  type GetSpecParams,
  type InferredSchemaEditParams,
  type ListStreamsParams,
  type OAuthConsentParams,
  type OAuthExchangeParams,
  type ResolvedManifestParams,
  type ResolveStreamsParams,
  type TestReadParams,
  type ConfigUpdateParams,
  CassetteSummaryRequest,
  CompareReadsRequest,
  ReadCassetteRequest,
  type CassetteSummaryParams,
  type CompareReadsParams,
  type ReadCassetteParams,
  CdkEngineStatusRequest,
  CdkPythonNotification,
  CompareEnginesRequest,
  type CdkEngineStatusParams,
  type CdkPythonParams,
  type CompareEnginesParams,
} from './protocol';
import { ManifestSkeletonRequest, type ManifestSkeletonResult } from './protocol';
import { OpenApiOperationsRequest, ScaffoldOpenApiRequest, type OpenApiOperationsParams, type ScaffoldOpenApiParams } from './protocol';
import { handleOpenApiOperations, handleScaffoldOpenApi } from './scaffoldHandler';
import {
  HarEntriesRequest,
  StreamsFromRequestsRequest,
  UnmaskRequestRequest,
  type HarEntriesParams,
  type HarEntriesResult,
  type StreamsFromRequestsParams,
  type UnmaskRequestParams,
} from './scaffoldProtocol';
import { handleHarEntries, handleStreamsFromRequests, handleUnmaskRequest } from './requestScaffoldHandler';
import { ReadReadinessRequest, type ReadReadinessParams, type ReadReadinessResult } from './protocol';
import { checkReadReadiness } from './features/readReadiness';
import { CdkEngineService } from './cdkEngine/cdkEngineService';
import { handleCompareEngines } from './compareEnginesHandler';
import { handleCdkEngineStatus } from './cdkReadHandler';
import {
  type RunAllStreamsProgressParams,
  IncrementalCheckRequest,
  RunAllStreamsProgressNotification,
  RunAllStreamsRequest,
  StreamCursorRequest,
  SelectPageNotification,
  TemplateHintsSettingNotification,
  type IncrementalCheckParams,
  type RunAllStreamsParams,
  type StreamCursorParams,
  type SelectPageParams,
  type TemplateHintsSettingParams,
} from './incrementalProtocol';

const NOT_OPEN = '# The manifest is not open in the language server.\n';

/** The server state of one connection. Made by `startLanguageServer`. */
export class ManifestLanguageServer {
  private readonly textDocuments = new TextDocuments(TextDocument);
  private readonly manifests = new ManifestDocuments();
  /** Validation waits this long after the last edit so a burst of keystrokes is validated once. */
  private validationDelayMs = 30;
  /**
   * A document whose last validation cost less CPU than this is validated at once on every edit:
   * debouncing it would add more waiting than the work it saves (a 1k-line manifest validates in a
   * few milliseconds, far less than the gap between keystrokes).
   */
  private immediateValidationMs = 20;
  /** CPU milliseconds of each open document's last validation. */
  private readonly validationCost = new Map<string, number>();
  private readonly pendingValidation = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly validatedOnce = new Set<string>();
  /** When the last change of each document arrived (ms): an edit after a pause is validated at once. */
  private readonly lastChange = new Map<string, number>();
  /** Past test reads (masked): the cassette commands read them (readHistory.ts). */
  private readonly readHistory = new ReadHistory();
  /** The last test read of each stream, for completion, hover and the paginator lens (captured/capturedReads.ts). */
  private readonly captured = new CapturedReads();
  /** Whether the client re-asks for code lenses when told to (a new captured read changes the paginator lens). */
  private codeLensRefresh = false;
  /** The Airbyte CDK engine's interpreter and its probe; a finished probe updates the run lenses (docs/engines.md). */
  private readonly cdk = new CdkEngineService(() => this.capturedReadsChanged());
  private inlayHintRefresh = false;
  /** `airbyte.inlayHints.templateValues`, and the page each stream's results view selected. */
  private templateHints = true;
  private readonly pageSelection: PageSelection = new Map();

  constructor(private readonly connection: Connection) {}

  logFailure(what: string, e: unknown): void {
    this.connection.console.error(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }

  /** Runs a feature; on failure logs and returns `fallback`, so no request goes unanswered. */
  private guard<T>(what: string, fallback: T, run: () => T): T {
    try {
      return run();
    } catch (e) {
      this.logFailure(what, e);
      return fallback;
    }
  }

  /** The current ManifestDocument of an open uri, or undefined. */
  private documentFor(uri: string): ManifestDocument | undefined {
    const textDocument = this.textDocuments.get(uri);
    return textDocument ? this.manifests.get(textDocument) : undefined;
  }

  private validate(uri: string): void {
    this.pendingValidation.delete(uri);
    const doc = this.documentFor(uri);
    if (!doc) return;
    const before = process.cpuUsage();
    const diagnostics = this.guard(`validation of ${uri}`, [], () => provideDiagnostics(doc));
    const spent = process.cpuUsage(before);
    // Hints from the last read (0 records: where the records are), outside the validation cost.
    const hints = this.guard(`read hints of ${uri}`, [], () => provideEmptyReadHints(doc, this.captured));
    if (hints.length) this.hinted.add(uri);
    else this.hinted.delete(uri);
    diagnostics.push(...hints);
    this.validationCost.set(uri, (spent.user + spent.system) / 1000);
    void this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
    // What the first completion or hover on this version would compute, done once the diagnostics
    // are out: the reference sites of the value (an edit re-walks only what it changed; on the
    // 21k-line quickbooks the first completion after opening spent 14-20 ms there), the line table
    // the cursor's context is read from (built on open, then updated for the edited lines) and the
    // character offsets of every template (validation maps only those with a problem).
    setImmediate(() => {
      if (this.documentFor(uri) !== doc) return;
      this.guard(`priming of ${uri}`, undefined, () => {
        primeComponentPaths(doc.featureValue);
        doc.locator.contextAt(0);
        for (const t of validationIfDone(doc)?.templates ?? []) void t.offsets;
      });
    });
  }

  /** Test reads and OAuth: the open document's value wins over the file on disk. */
  private readonly openManifest: OpenManifestLookup = (uri) => {
    const doc = this.documentFor(uri);
    if (!doc) return undefined;
    const parsed = doc.parsed;
    return { value: parsed.value, hasErrors: parsed.problems.some((p) => p.severity === 'error') };
  };

  /** What completion and hover read besides the document; the catalog index is built on first use. */
  /** Open documents whose last diagnostics had read hints (emptyReadHint.ts), so they go when the read does. */
  private readonly hinted = new Set<string>();
  /** How this client inserts multi-line completion items (completionLayout.ts). */
  private insertion: InsertionSupport = { asIs: false };

  private featureContext(): FeatureContext {
    return { index: catalogIndex(), captured: this.captured, insertion: this.insertion };
  }

  /** Registers every handler and starts listening. */
  listen(): void {
    const { connection } = this;
    connection.onInitialize((params) => {
      const options = (params.initializationOptions ?? {}) as { validationDelayMs?: unknown; immediateValidationMs?: unknown };
      if (typeof options.validationDelayMs === 'number' && options.validationDelayMs >= 0)
        this.validationDelayMs = options.validationDelayMs;
      if (typeof options.immediateValidationMs === 'number' && options.immediateValidationMs >= 0)
        this.immediateValidationMs = options.immediateValidationMs;
      // Before answering, so the first manifest opened is validated by warm code (warmUp.ts): this
      // adds a few hundred milliseconds of CPU to the server's start and saves as much on the first
      // open, which the author waits for.
      this.guard('warm-up', undefined, warmUpServer);
      this.codeLensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
      this.insertion = { asIs: clientSupportsAsIs(params.capabilities) };
      this.inlayHintRefresh = params.capabilities.workspace?.inlayHint?.refreshSupport === true;
      return {
        capabilities: {
          textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
          completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS },
          hoverProvider: true,
          definitionProvider: true,
          referencesProvider: true,
          documentSymbolProvider: true,
          codeLensProvider: { resolveProvider: false },
          codeActionProvider: {
            codeActionKinds: [
              CodeActionKind.QuickFix,
              CodeActionKind.RefactorExtract,
              CodeActionKind.RefactorInline,
              APPLY_CDK_MIGRATIONS_KIND,
              VERSION_BUMP_KIND,
            ],
          },
          renameProvider: { prepareProvider: true },
          inlayHintProvider: true,
        },
        serverInfo: { name: 'airbyte-manifest-server', version: '0.1.0' },
      };
    });

    this.textDocuments.onDidChangeContent(({ document }) => {
      const uri = document.uri;
      const now = performance.now();
      const previous = this.lastChange.get(uri);
      this.lastChange.set(uri, now);
      const pending = this.pendingValidation.get(uri);
      clearTimeout(pending);
      // The first version is validated at once (open → diagnostics).
      if (!this.validatedOnce.has(uri)) {
        this.validatedOnce.add(uri);
        this.validate(uri);
        return;
      }
      // An adaptive, leading-edge debounce: with nothing waiting, an edit is validated at once when the
      // document validates cheaply or the edit follows a pause (no change for the delay); otherwise
      // the edits of a burst wait until the burst pauses, and are validated once.
      const cheap = (this.validationCost.get(uri) ?? Infinity) < this.immediateValidationMs;
      if (pending === undefined && previous !== undefined && (cheap || now - previous >= this.validationDelayMs)) {
        this.validate(uri);
        return;
      }
      this.pendingValidation.set(
        uri,
        setTimeout(() => this.validate(uri), this.validationDelayMs),
      );
    });

    this.textDocuments.onDidClose(({ document }) => {
      clearTimeout(this.pendingValidation.get(document.uri));
      this.pendingValidation.delete(document.uri);
      this.validatedOnce.delete(document.uri);
      this.lastChange.delete(document.uri);
      this.validationCost.delete(document.uri);
      this.manifests.delete(document.uri);
      void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    });

    connection.onCompletion((params) =>
      this.guard('completion', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc ? provideCompletion(this.featureContext(), doc, params) : null;
      }),
    );

    connection.onHover((params) =>
      this.guard('hover', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc ? provideHover(this.featureContext(), doc, params) : null;
      }),
    );

    connection.onDefinition((params) =>
      this.guard('definition', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc ? provideDefinition(doc, params) : null;
      }),
    );

    connection.onReferences((params) =>
      this.guard('references', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc ? provideReferences(doc, params) : null;
      }),
    );

    connection.onDocumentSymbol((params) =>
      this.guard('document symbols', [], () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc ? provideDocumentSymbols(doc) : [];
      }),
    );

    connection.onCodeAction((params) =>
      this.guard('code actions', [], () => {
        const doc = this.documentFor(params.textDocument.uri);
        if (!doc) return [];
        const wants = (kind: string) => !params.context.only || params.context.only.some((k) => kind === k || kind.startsWith(`${k}.`));
        const span = rangeToSpan(doc.textDocument, params.range);
        return [
          ...(wants(CodeActionKind.QuickFix) ? provideCodeActions(doc, params) : []),
          ...(wants(CodeActionKind.RefactorExtract) ? provideExtractActions(doc, span) : []),
          ...(wants(CodeActionKind.RefactorInline) ? provideInlineActions(doc, span) : []),
          // Only when asked for by kind (Source Action…, the command): it validates the whole manifest.
          ...(params.context.only && wants(APPLY_CDK_MIGRATIONS_KIND) ? provideMigrationActions(doc) : []),
          ...(params.context.only && wants(VERSION_BUMP_KIND) ? provideVersionBumpActions(doc) : []),
        ];
      }),
    );

    connection.onPrepareRename((params) =>
      this.guard('prepare rename', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        const target = doc ? prepareDefinitionRename(doc, positionToOffset(doc.textDocument, params.position)) : null;
        return doc && target ? { range: spanToRange(doc.textDocument, target.span), placeholder: target.placeholder } : null;
      }),
    );

    connection.onRenameRequest((params) =>
      this.guard('rename', null, () => {
        const doc = this.documentFor(params.textDocument.uri);
        if (!doc) return null;
        const edits = renameDefinition(doc, positionToOffset(doc.textDocument, params.position), params.newName);
        if ('refused' in edits) return new ResponseError(ErrorCodes.InvalidRequest, edits.refused);
        return spanEditsToWorkspaceEdit(doc.textDocument, edits);
      }),
    );

    connection.onCodeLens((params) =>
      this.guard('code lenses', [], () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc
          ? [
              ...provideCodeLenses(doc, () => this.cdk.current()),
              ...providePaginatorLenses(doc, this.captured),
              ...provideIncrementalLenses(doc),
            ]
          : [];
      }),
    );

    connection.onRequest(ResolvedManifestRequest, (params: ResolvedManifestParams) =>
      this.guard('resolvedManifest', { text: NOT_OPEN, problems: 0 }, () => {
        const doc = this.documentFor(params.uri);
        return doc ? provideResolvedManifest(doc) : { text: NOT_OPEN, problems: 0 };
      }),
    );

    connection.onRequest(ListStreamsRequest, (params: ListStreamsParams) =>
      this.guard('listStreams', { streams: [] }, () => {
        const doc = this.documentFor(params.uri);
        return doc ? provideStreamList(doc) : { streams: [] };
      }),
    );
    // Run, Replay and Compare ask first: a broken document is refused with the place to fix it.
    connection.onRequest(ReadReadinessRequest, (params: ReadReadinessParams) =>
      this.guard('readReadiness', { ready: true } as ReadReadinessResult, () => {
        const doc = this.documentFor(params.uri);
        return doc
          ? checkReadReadiness(doc, typeof params.streamName === 'string' ? params.streamName : undefined)
          : { ready: true as const };
      }),
    );

    connection.onRequest(GetSpecRequest, (params: GetSpecParams) =>
      this.guard('getSpec', { connectionSpecification: null, advancedAuth: null }, () => {
        const doc = this.documentFor(params.uri);
        return doc ? provideSpec(doc) : { connectionSpecification: null, advancedAuth: null };
      }),
    );

    // The results view: the component a failed read blames, and declared vs inferred schema.
    connection.onRequest(ComponentLocationRequest, (params: ComponentLocationParams) =>
      this.guard('componentLocation', null, () => {
        const doc = this.documentFor(params.uri);
        return doc ? locateStreamComponent(doc, params.streamName, params.component) : null;
      }),
    );
    connection.onRequest(SchemaDifferencesRequest, (params: SchemaDifferencesParams) =>
      this.guard('schemaDifferences', { declared: 'unknown-stream' as const, differences: [] }, () => {
        const doc = this.documentFor(params.uri);
        // The records of the read just captured decide whether an inferred number contradicts a declared integer.
        const records = this.captured.get(params.uri, params.streamName)?.pages.flatMap((p) => p.records) ?? [];
        return doc
          ? provideSchemaDifferences(doc, params.streamName, params.inferred, records)
          : { declared: 'unknown-stream' as const, differences: [] };
      }),
    );

    // Test reads, OAuth and inferred schemas: the handlers get what they need, never the connection.
    connection.onRequest(TestReadRequest, async (params: TestReadParams, token: CancellationToken) => {
      const read = await handleTestRead(
        params,
        token,
        this.openManifest,
        {
          progress: (p) => void connection.sendNotification(TestReadProgressNotification, p),
          configUpdate: (p) => void connection.sendNotification(ConfigUpdateNotification, p),
        },
        this.readHistory,
        this.cdk,
      );
      // Every read (a cassette replay too) becomes the stream's captured read; a failure here only costs the capture.
      await captureRead(this.captured, params.uri, params.streamName, read, params.config, this.openManifest).then(
        () => this.capturedReadsChanged(),
        (e) => this.logFailure('capturing the test read', e),
      );
      return read;
    });
    connection.onRequest(CaptureReadRequest, async (p: CaptureReadParams) => {
      const result = await handleCaptureRead(this.captured, p, this.openManifest);
      this.capturedReadsChanged();
      return result;
    });
    connection.onRequest(ClearCapturedReadsRequest, (p: ClearCapturedReadsParams) => {
      this.captured.clear(String(p?.uri ?? ''), typeof p?.streamName === 'string' ? p.streamName : undefined);
      this.capturedReadsChanged();
      return null;
    });
    // Cassettes: save the last recorded read, check a cassette before replaying it, compare two reads.
    connection.onRequest(ReadCassetteRequest, (p: ReadCassetteParams) =>
      this.guard('readCassette', null, () => handleReadCassette(p, this.readHistory)),
    );
    connection.onRequest(CassetteSummaryRequest, (p: CassetteSummaryParams) => handleCassetteSummary(p));
    connection.onRequest(CompareReadsRequest, (p: CompareReadsParams) => handleCompareReads(p, this.readHistory));
    connection.onRequest(ResolveStreamsRequest, (p: ResolveStreamsParams, token: CancellationToken) =>
      handleResolveStreams(p, token, this.openManifest),
    );
    connection.onRequest(CheckConnectionRequest, (p: CheckConnectionParams, token: CancellationToken) =>
      handleCheckConnection(p, token, this.openManifest),
    );
    connection.onRequest(OAuthConsentRequest, (p: OAuthConsentParams) => handleOAuthConsent(p, this.openManifest));
    connection.onRequest(OAuthExchangeRequest, (p: OAuthExchangeParams) => handleOAuthExchange(p, this.openManifest));
    // The Airbyte CDK engine: the client's interpreter choice, its status, and "Compare with the CDK".
    connection.onNotification(CdkPythonNotification, (p: CdkPythonParams) => this.cdk.setPython(p?.python, p?.source ?? 'path'));
    connection.onRequest(CdkEngineStatusRequest, (p: CdkEngineStatusParams) => handleCdkEngineStatus(p, this.cdk, this.openManifest));
    connection.onRequest(CompareEnginesRequest, (p: CompareEnginesParams, token: CancellationToken) =>
      handleCompareEngines(
        p,
        token,
        this.openManifest,
        {
          progress: (e) => void connection.sendNotification(TestReadProgressNotification, e),
        },
        this.cdk,
      ),
    );
    // The incremental lab and "Run all streams" (incrementalHandlers.ts); each stream read by a run of all
    // streams becomes its captured read, as a Run stream does.
    const incrementalNotifier = {
      configUpdate: (p: ConfigUpdateParams) => void connection.sendNotification(ConfigUpdateNotification, p),
      allStreamsProgress: (p: RunAllStreamsProgressParams) => void connection.sendNotification(RunAllStreamsProgressNotification, p),
    };
    // Inlay hints: each template's value on the selected page of the stream's last read (templateInlayHints.ts).
    connection.languages.inlayHint.on((params) =>
      this.guard('inlay hints', [], () => {
        const doc = this.documentFor(params.textDocument.uri);
        return doc && this.templateHints ? provideTemplateInlayHints(doc, this.captured, params.range, this.pageSelection) : [];
      }),
    );
    connection.onNotification(TemplateHintsSettingNotification, (p: TemplateHintsSettingParams) => {
      this.templateHints = p?.enabled !== false;
      this.capturedReadsChanged();
    });
    connection.onNotification(SelectPageNotification, (p: SelectPageParams) => {
      if (typeof p?.uri !== 'string' || typeof p.streamName !== 'string' || !Number.isInteger(p.slice) || !Number.isInteger(p.page)) return;
      this.pageSelection.set(`${p.uri}#${p.streamName}`, { slice: p.slice, page: p.page });
      this.capturedReadsChanged();
    });
    connection.onRequest(StreamCursorRequest, (p: StreamCursorParams) => handleStreamCursor(p, this.openManifest));
    connection.onRequest(IncrementalCheckRequest, (p: IncrementalCheckParams, token: CancellationToken) =>
      handleIncrementalCheck(p, token, this.openManifest, incrementalNotifier),
    );
    connection.onRequest(RunAllStreamsRequest, async (p: RunAllStreamsParams, token: CancellationToken) => {
      const captures: Promise<unknown>[] = [];
      const out = await handleRunAllStreams(p, token, this.openManifest, incrementalNotifier, (stream, read) => {
        captures.push(
          captureRead(this.captured, p.uri, stream, read, p.config, this.openManifest).catch((e) =>
            this.logFailure('capturing a read of all streams', e),
          ),
        );
      });
      await Promise.all(captures);
      this.capturedReadsChanged();
      return out;
    });
    connection.onRequest(InferredSchemaEditRequest, (p: InferredSchemaEditParams) =>
      handleInferredSchemaEdit(p, (uri) => this.textDocuments.get(uri)?.getText()),
    );

    connection.onRequest(ManifestSkeletonRequest, (): ManifestSkeletonResult => ({ snippet: skeletonLines(catalogIndex()).join('\n') }));
    connection.onRequest(OpenApiOperationsRequest, (p: OpenApiOperationsParams) => handleOpenApiOperations(p));
    connection.onRequest(ScaffoldOpenApiRequest, (p: ScaffoldOpenApiParams) => handleScaffoldOpenApi(p));
    connection.onRequest(StreamsFromRequestsRequest, (p: StreamsFromRequestsParams) =>
      handleStreamsFromRequests(p, (uri) => this.textDocuments.get(uri)?.getText()),
    );
    connection.onRequest(HarEntriesRequest, async (p: HarEntriesParams): Promise<HarEntriesResult> => handleHarEntries(p));
    connection.onRequest(UnmaskRequestRequest, (p: UnmaskRequestParams) => handleUnmaskRequest(p, this.openManifest));

    this.textDocuments.listen(connection);
    connection.listen();
  }

  /** A captured read changed: the paginator lenses are asked for again (when the client supports it). */
  private capturedReadsChanged(): void {
    // The read hints follow the captured reads (emptyReadHint.ts).
    for (const d of this.textDocuments.all()) if (this.captured.has(d.uri) || this.hinted.has(d.uri)) this.validate(d.uri);
    if (this.codeLensRefresh)
      void this.connection.sendRequest('workspace/codeLens/refresh').catch((e) => this.logFailure('code lens refresh', e));
    if (this.inlayHintRefresh)
      void this.connection.sendRequest('workspace/inlayHint/refresh').catch((e) => this.logFailure('inlay hint refresh', e));
  }
}

/** Makes the server state for `connection`, registers every handler and starts listening. */
export function startLanguageServer(connection: Connection): ManifestLanguageServer {
  const server = new ManifestLanguageServer(connection);
  server.listen();
  return server;
}
