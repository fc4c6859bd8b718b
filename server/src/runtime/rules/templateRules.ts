// Entry point of the template rules: every template of a manifest, checked in the context of its
// field (templateChecks.ts). Used by the diagnostics feature, the CLI and the corpus script.
import type { ParsedManifest } from '../manifest/parse';
import type { ResolvedManifest } from '../manifest/resolve';
import type { Problem } from '../problems';
import { checkTemplate, MAX_SUGGESTIONS } from './templateChecks';
import type { ConfigSpec } from './templateConfigKeys';
import { findTemplates, type FoundTemplate, type TemplateCatalog } from './templateFields';
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

/** Templates of a manifest and their problems. Never throws. */
export function templateProblems(
  parsed: Pick<ParsedManifest, 'text' | 'locator'>,
  resolved: ResolvedManifest,
  catalog: TemplateCatalog,
): { templates: FoundTemplate[]; problems: Problem[] } {
  const templates = findTemplates(parsed.locator, parsed.text, resolved, catalog);
  const spec = connectionSpecOf(resolved.value);
  const problems: Problem[] = [];
  const seen = new Map<string, string[]>();
  const budget = { suggestions: MAX_SUGGESTIONS };
  for (const t of templates) {
    for (const p of checkTemplate(t, spec, budget)) {
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
  return { templates, problems };
}
