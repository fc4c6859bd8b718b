// Go to definition for `$ref` values and `#/...` reference strings: jumps to the referenced key,
// selecting exactly the key as written.
import type { DefinitionParams, LocationLink } from 'vscode-languageserver';
import { isScalar } from 'yaml';
import { positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { findReferenceTarget, referencePath } from './references';
import { provideTemplateDefinition } from './jinjaDocument';

/** The target of the reference under the cursor, or null when the cursor is not on a reference. Never throws. */
export function provideDefinition(doc: ManifestDocument, params: DefinitionParams): LocationLink[] | null {
  const model = doc.model;
  const offset = positionToOffset(doc.textDocument, params.position);
  // A config key inside a template jumps to its spec property (features/jinjaDocument.ts).
  if (doc.locator.contextAt(offset)?.template) return provideTemplateDefinition(doc, offset);
  const at = doc.locator.nodeAt(offset);
  if (!at || at.onKey || !isScalar(at.node)) return null;
  const path = referencePath(at.node.value);
  if (path === null) return null;
  const target = findReferenceTarget(model.value, path);
  if (!target) return null;
  const location = doc.locator.locate(target);
  if (!location) return null;
  const selection = location.keySpan ?? location.valueSpan;
  const whole = { start: selection.start, end: Math.max(selection.end, location.valueSpan.end) };
  return [
    {
      originSelectionRange: spanToRange(doc.textDocument, at.span),
      targetUri: doc.uri,
      targetRange: spanToRange(doc.textDocument, whole),
      targetSelectionRange: spanToRange(doc.textDocument, selection),
    },
  ];
}
