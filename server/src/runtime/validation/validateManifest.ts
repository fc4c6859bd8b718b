// Everything the runtime checks in a manifest, in one call: YAML problems, resolution problems,
// schema validation and the semantic rules, each located where the author wrote the offending text.
import type { Problem, ProblemFix, RelatedInfo, Severity } from '../problems';
import { RULES } from '../rules';
import { CATALOG_TEMPLATES, templateProblems } from '../rules/templateRules';
import type { RuleFinding } from '../rules/types';
import type { FoundTemplate } from '../rules/templateFields';
import { validateResolvedManifest, type SchemaIssue } from '../schema/validate';
import { isOlderThan, parseVersion, type CdkVersion } from '../schema/versions';
import type { Span } from '../types';
import type { JsonPath } from '../manifest/origins';
import type { ParsedManifest } from '../manifest/parse';
import { relatedFor, resolveManifest, type ManifestOrigins, type ResolvedManifest, type ResolveOptions } from '../manifest/resolve';
import { isPlainObject } from '../shared/plainObject';

type Located = {
  code: string;
  severity: Severity;
  message: string;
  path: JsonPath;
  anchor: SchemaIssue['anchor'];
  related?: RuleFinding['related'];
  fix?: ProblemFix;
};

/**
 * Validates a parsed manifest and returns every problem, sorted by position (UTF-16 offsets into
 * `parsed.text`). Never throws. A problem inside a referenced definition is reported once, where
 * the definition is written, with related information pointing at the reference(s).
 */
export function validateManifest(parsed: ParsedManifest): Problem[] {
  return validateManifestDetailed(parsed).problems;
}

/** What validation computed on the way, for callers that can reuse it (the language server's template features). */
export type ValidationDetails = {
  problems: Problem[];
  /** The resolved manifest, when the value could be resolved. */
  resolved?: ResolvedManifest;
  /** Every template with its context and offsets, when the template rules ran. */
  templates?: FoundTemplate[];
};

/** `validateManifest`, also returning the resolved manifest and its templates. Never throws. */
export function validateManifestDetailed(parsed: ParsedManifest, options: Pick<ResolveOptions, 'memo'> = {}): ValidationDetails {
  const details: ValidationDetails = { problems: [] };
  const problems: Problem[] = [...parsed.problems];
  // An empty document is only a YAML-level matter; there is nothing to validate.
  if (parsed.value === null || parsed.value === undefined) {
    if (!problems.some((p) => p.severity === 'error')) {
      problems.push({
        code: 'schema',
        severity: 'error',
        message: 'The manifest is empty: expected a mapping with `type: DeclarativeSource`.',
        span: { start: 0, end: 0 },
      });
    }
    details.problems = problems;
    return details;
  }
  const resolved = resolveManifest(parsed.value, { parsed, memo: options.memo });
  details.resolved = resolved;
  problems.push(...resolved.problems);
  const { issues, components } = validateResolvedManifest(resolved.value, resolved.origins.unresolved);
  for (const issue of issues) {
    // A deprecated type inserted as a default (§1.2) or a field filled from `$parameters` (§1.3) was
    // not written there: nothing to strike through.
    if (issue.code === 'deprecated') {
      const source = resolved.origins.sourceOf(issue.path).path;
      if (source.includes('$parameters')) continue;
      if (!parsed.locator.quickLocate(source)) {
        const where = resolved.origins.locate(issue.path);
        if (!where || where.approximate) continue;
      }
    }
    problems.push(locate(issue, resolved.origins, parsed));
  }
  if (isPlainObject(resolved.value)) {
    const ctx = { root: resolved.value, components, version: parseVersion(resolved.value.version) };
    for (const rule of RULES) {
      let findings: RuleFinding[] = [];
      try {
        findings = rule.check(ctx);
      } catch (e) {
        // A rule bug must not hide the other diagnostics.
        problems.push({
          code: 'internal-error',
          severity: 'warning',
          message: `Rule ${rule.code} failed: ${(e as Error).message}`,
          span: { start: 0, end: 0 },
        });
      }
      for (const f of findings) problems.push(locate(f, resolved.origins, parsed));
    }
    // Template rules locate their findings inside the template text (runtime/rules/templateRules.ts).
    try {
      const version = parseVersion(resolved.value.version);
      const found = templateProblems(parsed, resolved, CATALOG_TEMPLATES);
      // Read when first asked for: the templates without a problem are located then (templateRules.ts).
      Object.defineProperty(details, 'templates', { get: () => found.templates, enumerable: true, configurable: true });
      for (const p of found.problems) problems.push(olderVersionLeniency(p, version));
    } catch (e) {
      problems.push({
        code: 'internal-error',
        severity: 'warning',
        message: `Template rules failed: ${(e as Error).message}`,
        span: { start: 0, end: 0 },
      });
    }
  }
  details.problems = dedupe(problems);
  return details;
}

/**
 * Template variables the current CDK rejects but older ones accepted: a warning, not an error, for a
 * manifest declaring an older version (never a false error on a working connector). `stream_state`
 * was removed from templates in CDK 6.34.0 (the CDK migration guide's breaking change).
 */
const REJECTED_SINCE: Record<string, string> = { 'template-stream-state': '6.34.0' };

function olderVersionLeniency(p: Problem, version: CdkVersion | undefined): Problem {
  const since = REJECTED_SINCE[p.code];
  if (!since || p.severity !== 'error' || !version || !isOlderThan(version, since)) return p;
  return {
    ...p,
    severity: 'warning',
    message: `${p.message} It is accepted because this manifest declares the older CDK version ${version.join('.')}; CDK ${since} and later reject it.`,
  };
}

function locate(issue: Located, origins: ManifestOrigins, parsed: ParsedManifest): Problem {
  const quick = locateTopLevel(issue, origins, parsed);
  if (quick) return { code: issue.code, severity: issue.severity, message: issue.message, span: quick, ...fixFor(issue, true) };
  const where = locateBlockStyle(issue, origins, parsed) ?? locateWithParser(issue, origins, parsed);
  let message = issue.message;
  const p = where.sourcePath.indexOf('$parameters');
  if (p >= 0 && !issue.path.includes('$parameters') && issue.code === 'schema') {
    // Spec §1.3: parameters fill missing fields of every nested component, sometimes unexpectedly.
    message += ` The value comes from \`$parameters.${String(where.sourcePath[p + 1])}\`, which fills this field because the component does not set it.`;
  }
  const problem: Problem = { code: issue.code, severity: issue.severity, message, span: where.span, ...fixFor(issue, where.exact) };
  // Hints carry no related information: it is not worth locating references for them.
  if (issue.severity === 'hint') return problem;
  const related: RelatedInfo[] = [];
  if (where.via.length) related.push(...relatedFor(parsed.locator, where.via));
  for (const r of issue.related ?? []) {
    const at = origins.locate(r.path);
    if (at) related.push({ message: r.message, span: at.keySpan ?? at.span });
  }
  if (related.length) problem.related = related;
  return problem;
}

/** The issue's fix, except a replacement when the span is not exactly the text it would replace. */
function fixFor(issue: Located, exact: boolean): { fix?: ProblemFix } {
  if (!issue.fix || (issue.fix.kind === 'replace' && !exact)) return {};
  return { fix: issue.fix };
}

/**
 * Where an issue is written: the span to underline, its source path, the references that brought it
 * in, and whether the span is exactly the key or value the issue is about (not an ancestor's).
 */
type Where = { span: Span; sourcePath: JsonPath; via: readonly JsonPath[]; exact: boolean };

/** The common case without the parser: a key or a plain value written in block style, found by indentation (quickLocate.ts). */
function locateBlockStyle(issue: Located, origins: ManifestOrigins, parsed: ParsedManifest): Where | undefined {
  if (issue.anchor === 'component') return undefined;
  const origin = origins.sourceOf(issue.path);
  const q = parsed.locator.quickLocate(origin.path);
  const span = q && (issue.anchor === 'key' ? q.keySpan : q.valueSpan);
  return span ? { span, sourcePath: origin.path, via: origin.via, exact: true } : undefined;
}

/** Everything else, through the origin table and the parser. */
function locateWithParser(issue: Located, origins: ManifestOrigins, parsed: ParsedManifest): Where {
  const loc = origins.locate(issue.path);
  if (!loc) return { span: { start: 0, end: 0 }, sourcePath: [], via: [], exact: false };
  let via = origins.sourceOf(issue.path).via;
  let span: Span = loc.span;
  if (issue.anchor === 'component') {
    // A component merged from a `$ref` is anchored where its definition is written (its `type`
    // comes from there), with the reference as related information.
    const typeOrigin = origins.sourceOf([...issue.path, 'type']);
    const typeLoc = origins.locate([...issue.path, 'type']);
    if (typeLoc && !typeLoc.approximate && typeOrigin.via.length > via.length) {
      // Read through the locator: the model answers it from the definition's block alone.
      const def = parsed.locator.locateSource(typeOrigin.path.slice(0, -1));
      span = def.keySpan ?? typeLoc.keySpan ?? typeLoc.span;
      via = typeOrigin.via;
    } else {
      span = componentAnchor(issue.path, origins, loc.keySpan, loc.approximate) ?? firstLine(parsed.text, loc.span);
    }
  } else if (issue.anchor === 'key' && loc.keySpan && !loc.approximate) span = loc.keySpan;
  else if (issue.anchor === 'value' && loc.approximate && loc.keySpan) span = loc.keySpan;
  const exact = !loc.approximate && (issue.anchor === 'value' || (issue.anchor === 'key' && loc.keySpan !== undefined));
  return { span, sourcePath: loc.sourcePath, via, exact };
}

/**
 * Problems about the top level (a missing `check`, an unknown top-level key) are located by the
 * locator's index of column-0 keys, so a large file with only such problems never needs the full
 * `yaml` Document (the language server builds it lazily). Undefined when the index cannot be sure.
 */
function locateTopLevel(issue: Located, origins: ManifestOrigins, parsed: ParsedManifest): Span | undefined {
  if (issue.path.length > 1 || issue.related?.length || issue.anchor === 'value') return undefined;
  const source = origins.sourceOf(issue.path);
  if (source.via.length || source.path.length !== issue.path.length) return undefined;
  const key = issue.path.length === 0 ? 'type' : issue.path[0];
  if (typeof key !== 'string') return undefined;
  const at = parsed.locator.topLevelKey(key);
  return at === undefined ? undefined : { start: at, end: at + key.length };
}

/** The best short span for a whole component: its key, else its `type` entry. */
function componentAnchor(path: JsonPath, origins: ManifestOrigins, keySpan: Span | undefined, approximate: boolean): Span | undefined {
  if (keySpan && !approximate) return keySpan;
  const t = origins.locate([...path, 'type']);
  if (t && !t.approximate) return t.keySpan ?? t.span;
  return undefined;
}

/** The first line of a span, so a whole-mapping anchor does not underline a hundred lines. */
function firstLine(text: string, span: Span): Span {
  const nl = text.indexOf('\n', span.start);
  return { start: span.start, end: nl >= 0 && nl < span.end ? nl : span.end };
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Map<string, string[]>();
  const out: Problem[] = [];
  for (const p of problems) {
    // One misspelt type reached through several slots (a shared definition) is one problem. Keyed by
    // position, messages compared only there: no long key string per problem (a document can have 150,000).
    const key = `${p.code}|${p.span.start}|${p.span.end}`;
    const message = p.code === 'unknown-type' ? '' : p.message;
    const messages = seen.get(key);
    if (messages?.includes(message)) continue;
    if (messages) messages.push(message);
    else seen.set(key, [message]);
    out.push(p);
  }
  return out.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}
