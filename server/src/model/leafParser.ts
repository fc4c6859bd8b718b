// Parses one block of a manifest on its own. The fast path loads plain values with js-yaml (about
// ten times faster than building a `yaml` Document); blocks that fail it (syntax errors, duplicate
// keys) go through the runtime's parseManifest so problems are exactly those the CLI reports. The
// `yaml` Document with source ranges is built lazily, only when a feature needs positions.
import { CORE_SCHEMA, load } from 'js-yaml';
import { parseDocument, type Document, type Scalar } from 'yaml';
import { parseManifest } from '../runtime';
import type { JsonPath } from '../runtime';
import { quickLocatorFor, quickLocateSwitch, type QuickLocation } from '../runtime';
import { quickScalar } from '../runtime';
import type { Problem } from '../runtime';

/** An anchor (`&name`) where YAML allows one. */
const ANCHOR = /(^|[\s,[{])&[^\s,[\]{}]/;

export type LeafKind = 'entry' | 'item' | 'root';

/** The parse of one block. Offsets in `problems` and in the lazy document are local to `localText`. */
export class LeafParse {
  /** For entries: the map key as loaded. */
  key: string | undefined;
  /** The entry's value, the item itself, or the whole root value. */
  value: unknown;
  /** False when the block did not load as exactly one entry or item: the split must be abandoned. */
  shapeOk = true;
  problems: Problem[] = [];
  private docCache: Document.Parsed | undefined;
  /** Indentation lookups in this block's text, kept with the block (so reused while it is unchanged). */
  private locator: ((path: JsonPath) => QuickLocation | null) | undefined;
  private readonly located = new Map<string, QuickLocation | null>();
  private readonly scalars = new Map<string, Scalar | null>();

  constructor(
    readonly localText: string,
    readonly kind: LeafKind,
    /** True when the caller knows the text has no anchor (a block of a split text: the split checked the whole text). */
    private readonly anchorFree = false,
  ) {
    this.load();
  }

  /** The `yaml` Document of the block (ranges local to `localText`), built on first use. May throw on pathological nesting. */
  get doc(): Document.Parsed {
    this.docCache ??= parseDocument(this.localText, { keepSourceTokens: true, uniqueKeys: true, prettyErrors: false });
    return this.docCache;
  }

  /** quickLocate.ts over this block's text (offsets local to `localText`), cached per path. */
  quickLocate(path: JsonPath): QuickLocation | null {
    // The corpus check turns the locator off to compare with the parser: no caching then.
    if (!quickLocateSwitch.enabled) return null;
    const key = JSON.stringify(path);
    let found = this.located.get(key);
    if (found === undefined) {
      this.locator ??= quickLocatorFor(this.localText);
      found = this.locator(path);
      this.located.set(key, found);
    }
    return found;
  }

  /** quickScalar.ts over this block's text (range local to `localText`), cached per path and value. */
  quickScalar(path: JsonPath, value: string): Scalar | null {
    if (!quickLocateSwitch.enabled) return null;
    const key = `${JSON.stringify(path)}\u0000${value}`;
    let found = this.scalars.get(key);
    if (found === undefined) {
      found = quickScalar(this.localText, path, value, (p) => this.quickLocate(p));
      this.scalars.set(key, found);
    }
    return found;
  }

  private load(): void {
    let loaded: unknown;
    // Anchors go through the runtime parser, which bounds alias expansion (alias bombs).
    let fast = this.anchorFree || !ANCHOR.test(this.localText);
    if (fast) {
      try {
        loaded = load(this.localText, { schema: CORE_SCHEMA });
      } catch {
        fast = false;
      }
    }
    if (!fast) {
      try {
        const parsed = parseManifest(this.localText);
        this.docCache = parsed.doc;
        this.problems = parsed.problems.map(clarify);
        loaded = parsed.value;
      } catch (e) {
        // Only pathological input gets here (the parser itself ran out of stack).
        this.problems = [
          {
            code: 'yaml-syntax',
            severity: 'error',
            message: clarify({ message: (e as Error).message }).message,
            span: { start: 0, end: Math.min(1, this.localText.length) },
          },
        ];
        loaded = null;
      }
    }
    if (this.kind === 'root') {
      this.value = loaded ?? null;
      return;
    }
    if (this.kind === 'item') {
      if (Array.isArray(loaded) && loaded.length === 1) this.value = loaded[0];
      else this.shapeOk = fast ? false : Array.isArray(loaded);
      return;
    }
    if (loaded !== null && typeof loaded === 'object' && !Array.isArray(loaded)) {
      const keys = Object.keys(loaded);
      if (keys.length === 1) {
        this.key = keys[0];
        this.value = (loaded as Record<string, unknown>)[keys[0]];
        return;
      }
    }
    // A block with syntax errors may load as nothing: keep it (its problems say why) rather than
    // abandoning the split, which would let one broken block hide the rest of the file.
    this.shapeOk =
      !fast && (loaded === null || loaded === undefined || (typeof loaded === 'object' && Object.keys(loaded as object).length <= 1));
  }
}

/** Replaces the engine's stack-overflow message by one an author can act on. */
function clarify<T extends { message: string }>(problem: T): T {
  return /call stack/i.test(problem.message) ? { ...problem, message: 'The YAML is nested too deeply to be read.' } : problem;
}
