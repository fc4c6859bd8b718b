// ManifestDocument cache keyed by (uri, version): a document is parsed once per version, reusing
// the unchanged blocks of the previous version (model/manifestModel.ts), and the derived data is
// cached on it. An instance, not a module singleton.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LineCounter, Document } from 'yaml';
import { editedRegion, parseManifest, ManifestLocator, ResolutionMemo, lineEndIn, lineStartIn, type ParsedManifest } from './runtime';
import { ManifestModel } from './model/manifestModel';
import { blankOverlongLines, type OverlongLine } from './longLines';

/** What the cache needs from an editor document; a full TextDocument also serves positions. */
export type TextDocumentLike = { uri: string; version: number; getText(): string } | TextDocument;

/** One version of a manifest. Immutable; everything derived is computed on first use and kept. */
export class ManifestDocument {
  private modelCache: ManifestModel | undefined;
  private parsedCache: ParsedManifest | undefined;
  private locatorCache: ManifestLocator | undefined;
  private fullParse: ParsedManifest | undefined;
  private snapshot: TextDocument | undefined;
  private analysed: { text: string; lines: OverlongLine[] } | undefined;

  constructor(
    readonly uri: string,
    readonly version: number,
    readonly text: string,
    private previous: ManifestDocument | undefined,
    private lastGood: ManifestDocument | undefined = undefined,
    private readonly live: TextDocumentLike | undefined = undefined,
    /** Resolved copies of unchanged subtrees, shared by the versions of one document (runtime/manifest/resolutionMemo.ts). */
    readonly resolutionMemo: ResolutionMemo = new ResolutionMemo(),
  ) {
    this.isFirstVersion = previous === undefined;
  }

  /** True for the version a document was opened with (no earlier version to reuse). */
  readonly isFirstVersion: boolean;

  /**
   * This version as a TextDocument for offset ↔ position conversion. The editor's live document is
   * used while it is still at this version (its line index is maintained incrementally); after a
   * newer edit, a snapshot of this version is made.
   */
  get textDocument(): TextDocument {
    if (this.live && this.live.version === this.version && this.live.uri === this.uri) return this.live as TextDocument;
    this.snapshot ??= TextDocument.create(this.uri, 'yaml', this.version, this.text);
    return this.snapshot;
  }

  /**
   * The text the analyses read: this version's, with every line too long to analyse read as a comment
   * of the same length (longLines.ts), so offsets are this version's.
   */
  private get analysedText(): string {
    this.analysed ??= this.analyse();
    return this.analysed.text;
  }

  /** The lines of this version too long to analyse (usually none). */
  get overlongLines(): OverlongLine[] {
    this.analysed ??= this.analyse();
    return this.analysed.lines;
  }

  /**
   * `blankOverlongLines` of this version. When the previous version had no overlong line, only the
   * lines the edit touched can have become one: lines wholly before or after it are unchanged.
   */
  private analyse(): { text: string; lines: OverlongLine[] } {
    const before = this.previous?.analysed;
    if (before && before.lines.length === 0) {
      const { prefix, suffix } = editedRegion(before.text, this.text);
      const from = lineStartIn(this.text, prefix);
      const to = lineEndIn(this.text, this.text.length - suffix);
      if (blankOverlongLines(this.text.slice(from, to)).lines.length === 0) return { text: this.text, lines: [] };
    }
    return blankOverlongLines(this.text);
  }

  /** The incremental model of this version (built on first use from the previous version's blocks). */
  get model(): ManifestModel {
    if (!this.modelCache) {
      this.modelCache = ManifestModel.build(this.analysedText, this.previous?.modelCache);
      // The previous version is no longer needed once its blocks have been reused.
      this.previous = undefined;
    }
    return this.modelCache;
  }

  /**
   * The one locator of this version (runtime/manifest/locator/manifestLocator.ts) over the incremental model: path ↔
   * span, offsets → nodes, line helpers. Every feature and validation asks it; answers inside a block
   * are cached on the block and reused by later versions while the block is unchanged.
   */
  get locator(): ManifestLocator {
    this.locatorCache ??= new ManifestLocator(this.analysedText, this.model);
    return this.locatorCache;
  }

  /**
   * The runtime's ParsedManifest shape. `value` and `problems` come from the fast model; `doc` and
   * `lineCounter` are a whole-document `yaml` parse made only if a caller reads them.
   */
  get parsed(): ParsedManifest {
    if (this.parsedCache) return this.parsedCache;
    const self = this;
    const model = this.model;
    this.parsedCache = {
      text: this.analysedText,
      value: model.value,
      problems: model.problems,
      // Validation locates its problems through the model's locator: no whole-document parse.
      locator: this.locator,
      get doc(): Document.Parsed {
        self.fullParse ??= parseManifest(self.analysedText);
        return self.fullParse.doc;
      },
      get lineCounter(): LineCounter {
        self.fullParse ??= parseManifest(self.analysedText);
        return self.fullParse.lineCounter;
      },
    };
    return this.parsedCache;
  }

  /**
   * The value completion and hover read: this version's, or while this version has YAML errors the
   * value of the last version that had none (a half-typed line must not blank the component above).
   */
  get featureValue(): unknown {
    if (!this.hasSyntaxErrors()) return this.model.value;
    return this.lastGood?.model.value ?? this.model.value;
  }

  /** The latest version known to be free of YAML errors (this one when it is), or undefined. */
  goodSource(): ManifestDocument | undefined {
    if (this.modelCache && !this.hasSyntaxErrors()) {
      // This version is its own good source: holding the older one would chain every version of
      // the file (each with its text and model) for as long as the document is open.
      this.lastGood = undefined;
      return this;
    }
    return this.lastGood;
  }

  private hasSyntaxErrors(): boolean {
    return this.model.problems.some((p) => p.severity === 'error');
  }

  /** The version whose blocks a next version should reuse: this one once built, else its own source. */
  reuseSource(): ManifestDocument | undefined {
    return this.modelCache ? this : this.previous;
  }
}

/** The open manifests: the current version of each, built lazily from the editor's text. */
export class ManifestDocuments {
  private readonly cache = new Map<string, ManifestDocument>();

  /** The document for the given editor text; the same instance while the version does not change. */
  get(textDocument: TextDocumentLike): ManifestDocument {
    const cached = this.cache.get(textDocument.uri);
    if (cached && cached.version === textDocument.version) return cached;
    const live = 'positionAt' in textDocument ? textDocument : undefined;
    const doc = new ManifestDocument(
      textDocument.uri,
      textDocument.version,
      textDocument.getText(),
      cached?.reuseSource(),
      cached?.goodSource(),
      live,
      cached?.resolutionMemo,
    );
    this.cache.set(textDocument.uri, doc);
    return doc;
  }

  /** The current version of `uri`, if open. */
  find(uri: string): ManifestDocument | undefined {
    return this.cache.get(uri);
  }

  delete(uri: string): void {
    this.cache.delete(uri);
  }
}
