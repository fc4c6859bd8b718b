// The language server process: the only module that touches `connection`. It declares capabilities,
// routes requests to feature functions, owns the document lifecycle and debounces validation.
// Every handler is guarded: a failing feature logs and answers "nothing", it never ends the process.
import { CodeActionKind, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments, type ManifestDocument } from './documents';
import { provideDiagnostics } from './features/diagnostics';
import { registerTestRead } from './testReadHandler';
import { registerOAuth } from './oauthHandler';
import { registerInferredSchemaEdit } from './inferredSchemaHandler';
import { provideDefinition } from './features/definition';
import { provideDocumentSymbols } from './features/symbols';
import { provideCodeLenses } from './features/codeLens';
import { provideCodeActions } from './features/codeActions';
import { provideStreamList } from './features/streams';
import { provideSpec } from './features/spec';
import { provideCompletion, COMPLETION_TRIGGER_CHARACTERS, type FeatureContext } from './features/completion';
import { provideHover } from './features/hover';
import { provideReferences } from './features/findReferences';
import { catalogIndex } from './features/catalogIndex';
import { GetSpecRequest, ListStreamsRequest, ResolvedManifestRequest, type GetSpecParams, type ListStreamsParams, type ResolvedManifestParams } from './protocol';
import { provideResolvedManifest } from './features/resolvedManifest';

const connection = createConnection(ProposedFeatures.all);
const textDocuments = new TextDocuments(TextDocument);
const manifests = new ManifestDocuments();

/** Validation waits this long after the last edit so a burst of keystrokes is validated once. */
let validationDelayMs = 30;
const pendingValidation = new Map<string, ReturnType<typeof setTimeout>>();
const validatedOnce = new Set<string>();

function logFailure(what: string, e: unknown): void {
  connection.console.error(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
}

/** Runs a feature; on failure logs and returns `fallback`, so no request goes unanswered. */
function guard<T>(what: string, fallback: T, run: () => T): T {
  try {
    return run();
  } catch (e) {
    logFailure(what, e);
    return fallback;
  }
}

/** The current ManifestDocument of an open uri, or undefined. */
function documentFor(uri: string): ManifestDocument | undefined {
  const textDocument = textDocuments.get(uri);
  return textDocument ? manifests.get(textDocument) : undefined;
}

function validate(uri: string): void {
  pendingValidation.delete(uri);
  const doc = documentFor(uri);
  if (!doc) return;
  const diagnostics = guard(`validation of ${uri}`, [], () => provideDiagnostics(doc));
  void connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
}

connection.onInitialize((params) => {
  const options = (params.initializationOptions ?? {}) as { validationDelayMs?: unknown };
  if (typeof options.validationDelayMs === 'number' && options.validationDelayMs >= 0) validationDelayMs = options.validationDelayMs;
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'airbyte-manifest-server', version: '0.1.0' },
  };
});

/**
 * Validates a small manifest once the client is ready, so the schema validators are compiled and
 * the parsing code is warm before the first real file arrives (the first open is then as fast as
 * the next ones). A failure here only costs the warm-up.
 */
function warmUp(): void {
  const sample = [
    'version: 6.4.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [items]', 'streams:',
    '  - type: DeclarativeStream', '    name: items', '    retriever:', '      type: SimpleRetriever', '      requester:',
    '        type: HttpRequester', '        url_base: https://api.example.test', '        path: /items', '        authenticator:',
    '          type: BearerAuthenticator', '          api_token: "{{ config[\'token\'] }}"', '      paginator:', '        type: DefaultPaginator',
    '        pagination_strategy:', '          type: PageIncrement', '          page_size: 10', '      record_selector:', '        type: RecordSelector',
    '        extractor:', '          type: DpathExtractor', '          field_path: [data]', 'spec:', '  type: Spec', '  connection_specification:',
    '    type: object', '    properties: {}',
  ].join('\n');
  guard('warm-up', undefined, () => {
    const docs = new ManifestDocuments();
    provideDiagnostics(docs.get({ uri: 'warmup:manifest.yaml', version: 1, getText: () => sample }));
  });
}

connection.onInitialized(() => {
  setTimeout(warmUp, 0);
});

textDocuments.onDidChangeContent(({ document }) => {
  const uri = document.uri;
  clearTimeout(pendingValidation.get(uri));
  // The first version is validated at once (open → diagnostics); edits are debounced.
  if (!validatedOnce.has(uri)) {
    validatedOnce.add(uri);
    validate(uri);
    return;
  }
  pendingValidation.set(uri, setTimeout(() => validate(uri), validationDelayMs));
});

textDocuments.onDidClose(({ document }) => {
  clearTimeout(pendingValidation.get(document.uri));
  pendingValidation.delete(document.uri);
  validatedOnce.delete(document.uri);
  manifests.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

/** What completion and hover read besides the document; the catalog index is built on first use. */
function featureContext(): FeatureContext {
  return { index: catalogIndex() };
}

connection.onCompletion((params) => guard('completion', null, () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideCompletion(featureContext(), doc, params) : null;
}));

connection.onHover((params) => guard('hover', null, () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideHover(featureContext(), doc, params) : null;
}));

connection.onDefinition((params) => guard('definition', null, () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideDefinition(doc, params) : null;
}));

connection.onReferences((params) => guard('references', null, () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideReferences(doc, params) : null;
}));

connection.onDocumentSymbol((params) => guard('document symbols', [], () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideDocumentSymbols(doc) : [];
}));

connection.onCodeAction((params) => guard('code actions', [], () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideCodeActions(doc, params) : [];
}));

connection.onCodeLens((params) => guard('code lenses', [], () => {
  const doc = documentFor(params.textDocument.uri);
  return doc ? provideCodeLenses(doc) : [];
}));

connection.onRequest(ResolvedManifestRequest, (params: ResolvedManifestParams) => guard('resolvedManifest', { text: '# The manifest is not open in the language server.\n', problems: 0 }, () => {
  const doc = documentFor(params.uri);
  return doc ? provideResolvedManifest(doc) : { text: '# The manifest is not open in the language server.\n', problems: 0 };
}));

connection.onRequest(ListStreamsRequest, (params: ListStreamsParams) => guard('listStreams', { streams: [] }, () => {
  const doc = documentFor(params.uri);
  return doc ? provideStreamList(doc) : { streams: [] };
}));

connection.onRequest(GetSpecRequest, (params: GetSpecParams) => guard('getSpec', { connectionSpecification: null, advancedAuth: null }, () => {
  const doc = documentFor(params.uri);
  return doc ? provideSpec(doc) : { connectionSpecification: null, advancedAuth: null };
}));

process.on('uncaughtException', (e) => logFailure('uncaught exception', e));
process.on('unhandledRejection', (e) => logFailure('unhandled rejection', e));

// Test reads and OAuth (client-owned wiring): the open document's text wins over the file on disk.
const openManifest = (uri: string) => {
  const doc = documentFor(uri);
  if (!doc) return undefined;
  const parsed = doc.parsed;
  return { value: parsed.value, hasErrors: parsed.problems.some((p) => p.severity === 'error') };
};
registerTestRead(connection, openManifest);
registerOAuth(connection, openManifest);
registerInferredSchemaEdit(connection, (uri) => textDocuments.get(uri)?.getText());

textDocuments.listen(connection);
connection.listen();
