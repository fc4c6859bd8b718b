// ManifestDocument cache keyed by (uri, version): a document is parsed once per version and the
// derived data (resolution, validation) is cached on it. An instance, not a module singleton.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseManifest, type ParsedManifest } from './runtime/manifest/parse';

export class ManifestDocument {
  private parsedCache: ParsedManifest | undefined;
  /** The text and version are captured at construction: TextDocuments mutates its documents in place. */
  readonly text: string;
  readonly version: number;
  constructor(readonly textDocument: TextDocument) {
    this.text = textDocument.getText();
    this.version = textDocument.version;
  }

  get uri(): string {
    return this.textDocument.uri;
  }
  get parsed(): ParsedManifest {
    this.parsedCache ??= parseManifest(this.text);
    return this.parsedCache;
  }
}

export class ManifestDocuments {
  private readonly cache = new Map<string, ManifestDocument>();

  get(textDocument: TextDocument): ManifestDocument {
    const cached = this.cache.get(textDocument.uri);
    if (cached && cached.version === textDocument.version) return cached;
    const doc = new ManifestDocument(textDocument);
    this.cache.set(textDocument.uri, doc);
    return doc;
  }

  delete(uri: string): void {
    this.cache.delete(uri);
  }
}
