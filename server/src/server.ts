// The language server process: the only module that touches `connection`. It declares capabilities,
// routes requests to feature functions and owns the document lifecycle.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from './documents';
import { provideDiagnostics } from './features/diagnostics';
import { registerTestRead } from './testReadHandler';
import { registerOAuth } from './oauthHandler';
import { registerInferredSchemaEdit } from './inferredSchemaHandler';

const connection = createConnection(ProposedFeatures.all);
const textDocuments = new TextDocuments(TextDocument);
const manifests = new ManifestDocuments();

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
  },
  serverInfo: { name: 'airbyte-manifest-server', version: '0.1.0' },
}));

textDocuments.onDidChangeContent(({ document }) => {
  const doc = manifests.get(document);
  try {
    connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: provideDiagnostics(doc) });
  } catch (e) {
    connection.console.error(`diagnostics failed for ${document.uri}: ${(e as Error).stack ?? e}`);
  }
});

textDocuments.onDidClose(({ document }) => {
  manifests.delete(document.uri);
  connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

// Test reads and OAuth (client-owned wiring): the open document's text wins over the file on disk.
const openManifest = (uri: string) => {
  const td = textDocuments.get(uri);
  if (!td) return undefined;
  const parsed = manifests.get(td).parsed;
  return { value: parsed.value, hasErrors: parsed.problems.some((p) => p.severity === 'error') };
};
registerTestRead(connection, openManifest);
registerOAuth(connection, openManifest);
registerInferredSchemaEdit(connection, (uri) => textDocuments.get(uri)?.getText());

textDocuments.listen(connection);
connection.listen();
