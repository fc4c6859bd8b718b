// What the language server derives from one document version once and shares between features:
// its validation (diagnostics, read readiness and CDK migrations read the same run) and its resolved
// manifest (template and captured-read features). Features read these; none writes into another's cache.
import type { ManifestDocument } from './documents';
import { resolveManifest, type ResolvedManifest } from './runtime';
import { validateManifestDetailed, type ValidationDetails } from './runtime';

const validations = new WeakMap<ManifestDocument, ValidationDetails>();
const resolvedManifests = new WeakMap<ManifestDocument, ResolvedManifest>();

/** The validation of a document version (run once per version). Never throws. */
export function documentValidation(doc: ManifestDocument): ValidationDetails {
  let hit = validations.get(doc);
  if (!hit) {
    hit = validateManifestDetailed(doc.parsed, { memo: doc.resolutionMemo });
    validations.set(doc, hit);
  }
  return hit;
}

/** The validation of a document version if it has run already (the templates it found), else undefined. */
export function validationIfDone(doc: ManifestDocument): ValidationDetails | undefined {
  return validations.get(doc);
}

/** The resolved manifest of a document version (resolved once, shared by the template and captured-read features). */
export function documentResolved(doc: ManifestDocument): ResolvedManifest {
  // Validation resolved this very value already when it has run: the same call, so the same answer.
  let hit = resolvedManifests.get(doc) ?? validations.get(doc)?.resolved;
  if (!hit) {
    const parsed = doc.parsed;
    hit = resolveManifest(parsed.value, { parsed, memo: doc.resolutionMemo });
    resolvedManifests.set(doc, hit);
  }
  return hit;
}
