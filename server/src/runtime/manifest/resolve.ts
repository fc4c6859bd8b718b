// Manifest resolution (airbyte_cdk/sources/declarative/parsers/manifest_component_transformer.py): default top-level type, references, default
// component types and `$parameters`, into a plain resolved view plus an origin map that points every
// resolved value back at the text the author wrote. Works on a plain value or a parsed document.
import type { Document } from 'yaml';
import type { Problem, RelatedInfo } from '../problems';
import type { Span } from '../types';
import { OriginTable, toNodeOrigin, toPointer, type JsonPath, type LocatedOrigin, type NodeOrigin } from './origins';
import { locateOrigin, locateSourcePath, type SourceLocator } from './locator/sourceNodes';
import type { ParsedManifest } from './parse';
import { TypeAndParameterPropagator } from './propagate';
import type { ResolutionMemo } from './resolutionMemo';
import { isPlainObject } from '../shared/plainObject';
import { MAX_DEPTH, MAX_RESOLVED_VALUES, ReferenceResolver, ResolutionTooLarge, type ReferenceFailure } from './references';

export type { JsonPath, LocatedOrigin, NodeOrigin } from './origins';

/** Options of `resolveManifest`. */
export type ResolveOptions = {
  /**
   * The parsed manifest the value came from (its locator answers), or a bare `yaml` Document:
   * enables spans in problems and in the origin map.
   */
  parsed?: Pick<ParsedManifest, 'locator'> | { doc: Document };
  /**
   * Copies of reference-free subtrees kept from resolving earlier versions (resolutionMemo.ts): the
   * language server passes one per open document so an edit re-copies only what it changed.
   */
  memo?: ResolutionMemo;
};

/** The origin map of a resolved manifest: resolved JSON path → where it was written. */
export interface ManifestOrigins {
  /** Source path (in the manifest as written) and reference chain of the resolved value at `path`. */
  sourceOf(path: JsonPath): NodeOrigin;
  /** Spans of the resolved value at `path`; undefined when no parsed document was given. */
  locate(path: JsonPath): LocatedOrigin | undefined;
  /** Resolved paths whose references could not be followed (problems below them are noise). */
  readonly unresolved: readonly JsonPath[];
}

export type ResolvedManifest = {
  /** The resolved manifest: plain JSON, no references, default types inserted, parameters propagated. */
  value: unknown;
  problems: Problem[];
  origins: ManifestOrigins;
};

/**
 * Resolves a manifest value as the CDK does before validation (§1 steps 1-3). Never throws:
 * unfollowable references stay as written and are reported as `unknown-reference` /
 * `circular-reference` / `invalid-reference` errors at the referencing node. Spans are UTF-16
 * offsets; without `options.parsed` problems carry an empty span at 0 and name the path instead.
 */
export function resolveManifest(value: unknown, options: ResolveOptions = {}): ResolvedManifest {
  // The Document is read only when something must be located (it may be built lazily).
  const parsed = options.parsed;
  const doc: SourceLocator | undefined = !parsed
    ? undefined
    : 'locator' in parsed
      ? (p) => parsed.locator.locateSource(p)
      : (p) => locateSourcePath(parsed.doc, p);
  const table = new OriginTable();
  const problems: Problem[] = [];

  // Spec §1 step 1: the top level defaults to a DeclarativeSource.
  let root = value;
  if (isPlainObject(root) && !('type' in root)) root = { ...root, type: 'DeclarativeSource' };

  const refs = new ReferenceResolver(root, table, options.memo);
  let resolved: unknown;
  // Set when resolution stopped: nothing below the root is validated against a half-resolved view.
  let stopped = false;
  try {
    resolved = refs.resolveRoot();
    resolved = new TypeAndParameterPropagator(table).propagateRoot(resolved);
  } catch (e) {
    stopped = true;
    resolved = root;
    if (e instanceof ResolutionTooLarge) {
      problems.push(tooLargeProblem(e, doc));
    } else {
      // Only an exhausted stack can get here (inputs are plain data); keep the unresolved value.
      problems.push({
        code: 'resolve-failed',
        severity: 'error',
        message: `The manifest could not be resolved: ${(e as Error).message}`,
        span: { start: 0, end: 0 },
      });
    }
  }

  const seen = new Set<string>();
  for (const f of refs.failures) {
    // A definition referenced from many places reports its broken reference once.
    const key = `${f.kind}|${toPointer(f.site.path)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(referenceProblem(f, doc));
  }
  if (refs.tooDeep) {
    problems.push({
      code: 'nesting-too-deep',
      severity: 'error',
      message: `Nesting deeper than ${MAX_DEPTH} levels is not resolved.`,
      span: doc ? doc(refs.tooDeep).span : { start: 0, end: 0 },
    });
  }

  const unresolved = stopped ? [[]] : refs.failures.map((f) => f.resolvedPath);
  const origins: ManifestOrigins = {
    sourceOf: (path) => toNodeOrigin(table.originAt(resolved, path)),
    locate: (path) => (doc ? locateOrigin(doc, toNodeOrigin(table.originAt(resolved, path))) : undefined),
    unresolved,
  };
  return { value: resolved, problems, origins };
}

function tooLargeProblem(e: ResolutionTooLarge, doc: SourceLocator | undefined): Problem {
  const where = doc ? '' : ` (at ${toPointer(e.site.path) || '/'})`;
  const problem: Problem = {
    code: 'resolution-too-large',
    severity: 'error',
    message:
      e.ref === '$parameters'
        ? `Propagating \`$parameters\` would write more than ${(2 * MAX_RESOLVED_VALUES).toLocaleString('en-US')} values; resolution stopped at this component${where}. ` +
          'Many parameters inherited by many components multiply: move parameters to the components that use them.'
        : `Resolving references would produce more than ${MAX_RESOLVED_VALUES.toLocaleString('en-US')} values; resolution stopped at \`${e.ref}\`${where}. ` +
          'Definitions that each reference the next several times multiply at every level: reference a shared definition once, or flatten the chain.',
    span: doc ? doc(e.site.path).span : { start: 0, end: 0 },
  };
  if (doc && e.site.via.length) problem.related = relatedFor(doc, e.site.via);
  return problem;
}

function referenceProblem(f: ReferenceFailure, doc: SourceLocator | undefined): Problem {
  const code = f.kind === 'missing' ? 'unknown-reference' : f.kind === 'cycle' ? 'circular-reference' : 'invalid-reference';
  const where = doc ? '' : ` (at ${toPointer(f.site.path) || '/'})`;
  const message =
    f.kind === 'invalid' ? `Invalid reference${where}: ${f.detail}` : `Reference \`${f.ref}\` cannot be resolved${where}: ${f.detail}.`;
  const span: Span = doc ? doc(f.site.path).span : { start: 0, end: 0 };
  const problem: Problem = { code, severity: 'error', message, span };
  if (doc && f.site.via.length) problem.related = relatedFor(doc, f.site.via);
  return problem;
}

/** Related information for a value copied in by references: one entry per reference site, innermost first. */
export function relatedFor(where: SourceLocator | { locateSource: SourceLocator }, via: readonly JsonPath[]): RelatedInfo[] {
  const locate: SourceLocator = typeof where === 'function' ? where : (p) => where.locateSource(p);
  // The innermost references are the useful ones; a 500-long chain on each of 500 problems would
  // cost 250,000 lookups and bury the message.
  return [...via]
    .reverse()
    .slice(0, MAX_RELATED)
    .map((p) => ({ message: 'Brought in by this reference', span: locate(p).span }));
}

/** Most "Brought in by this reference" entries on one problem. */
const MAX_RELATED = 20;
