// Entry point of the template rules: every template of a manifest, checked in the context of its
// field (templateChecks.ts). Used by the diagnostics feature, the CLI and the corpus script.
import type { ParsedManifest } from '../manifest/parse';
import type { ResolvedManifest } from '../manifest/resolve';
import type { Problem } from '../problems';
import { locateFinding, MAX_SUGGESTIONS, templateFindings, type CheckBudget, type TemplateFinding } from './templateChecks';
import type { ConfigSpec } from './templateConfigKeys';
import { findTemplateCandidates, locateAll, type FoundTemplate, type TemplateCandidate, type TemplateCatalog } from './templateFields';
import { getComponent, templateContextFor } from '../schema/catalog';

/** The component catalog as the template walker sees it: field → template context kind. */
export const CATALOG_TEMPLATES: TemplateCatalog = {
  contextFor: (type, field) => templateContextFor(type, field),
  isComponentType: (type) => getComponent(type) !== undefined,
  isDataField: (type, field) => DATA_FIELDS.has(`${type}.${field}`),
};

/**
 * Fields whose value is a JSON schema: the CDK renders no template in them and they hold no
 * component, so the template walk skips them (the top level's `schemas` are reached, resolved,
 * through the loaders that reference them).
 */
const DATA_FIELDS = new Set(['DeclarativeSource.schemas', 'InlineSchemaLoader.schema', 'Spec.connection_specification']);

/** spec.connection_specification of a resolved manifest, or null. */
export function connectionSpecOf(resolved: unknown): ConfigSpec | null {
  const spec = (resolved as { spec?: { connection_specification?: unknown } } | null)?.spec?.connection_specification;
  return spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? (spec as ConfigSpec) : null;
}

/**
 * The findings of each template check, keyed by everything a check reads (the template text, its
 * kind, component and field, the spec): an edit re-checks only the templates it changed, and a
 * template written many times (a stream copied into `definitions`) is checked once. Findings are
 * located by character index into the template, so a hit only maps them onto this place's offsets.
 */
const FINDINGS = new Map<string, TemplateFinding[]>();
/** Turned off by the equivalence checks, whose from-scratch analysis must not read what the incremental one kept. */
export const templateFindingsMemo = { enabled: true };
/** Past this many entries the memo starts again (memory stays bounded). */
const MAX_FINDINGS = 20_000;
const NONE_FOUND: TemplateFinding[] = [];

/** A short id per connection specification seen (memo keys stay short); restarted past a bound. */
const SPEC_IDS = new Map<string, string>();
let specsSeen = 0;
function specId(json: string): string {
  let id = SPEC_IDS.get(json);
  if (id === undefined) {
    // Ids are never reused: a memo entry keyed by a forgotten spec's id can only miss.
    if (SPEC_IDS.size >= 64) SPEC_IDS.clear();
    id = `spec${specsSeen++}`;
    SPEC_IDS.set(json, id);
  }
  return id;
}

/**
 * Templates of a manifest and their problems. Never throws. A template is located in the text only
 * when it has a problem; `templates` locates the rest when first read.
 */
export function templateProblems(
  parsed: Pick<ParsedManifest, 'text' | 'locator'>,
  resolved: ResolvedManifest,
  catalog: TemplateCatalog,
): { readonly templates: FoundTemplate[]; problems: Problem[] } {
  const candidates = findTemplateCandidates(parsed.locator, parsed.text, resolved, catalog);
  const spec = connectionSpecOf(resolved.value);
  const specKey = spec ? specId(JSON.stringify(spec)) : '';
  const problems: Problem[] = [];
  const seen = new Map<string, string[]>();
  const budget = { suggestions: MAX_SUGGESTIONS };
  for (const c of candidates) {
    const findings = findingsOnce(c, spec, specKey, budget);
    if (findings.length === 0) continue;
    const t = c.located();
    if (!t) continue;
    for (const f of findings) {
      const p = locateFinding(t, f);
      // The same source scalar can be reached in several fields; report each finding once.
      // Keyed by position, messages compared only there: no long key string per problem.
      const key = `${p.code}|${p.span.start}`;
      const messages = seen.get(key);
      if (messages?.includes(p.message)) continue;
      if (messages) messages.push(p.message);
      else seen.set(key, [p.message]);
      problems.push(p);
    }
  }
  let templates: FoundTemplate[] | undefined;
  return {
    get templates() {
      templates ??= locateAll(candidates);
      return templates;
    },
    problems,
  };
}

/** `templateFindings`, answered from the memo when the same check ran before. */
function findingsOnce(t: TemplateCandidate, spec: ConfigSpec | null, specKey: string, budget: CheckBudget): TemplateFinding[] {
  const key = `${t.kind}\u0000${t.component}\u0000${t.field}\u0000${specKey}\u0000${t.text}`;
  // A hit spends no did-you-mean search, as a fresh check would not either: its names' answers are
  // in the checks' own cache since it ran (templateChecks.ts).
  const hit = budget.suggestions > 0 && templateFindingsMemo.enabled ? FINDINGS.get(key) : undefined;
  if (hit) return hit;
  const findings = templateFindings(t, spec, budget);
  // A check that ran out of did-you-mean searches depends on the templates before it: not kept.
  if (budget.suggestions > 0 && templateFindingsMemo.enabled) {
    if (FINDINGS.size >= MAX_FINDINGS) FINDINGS.clear();
    FINDINGS.set(key, findings.length ? findings : NONE_FOUND);
  }
  return findings;
}
