// Once validation has run, a cursor in a template's scalar is answered from validation's list of
// located templates instead of the node under the cursor (jinjaDocument.ts). Both ways must give the
// same answer at every offset: inside a template, on its quotes, on keys, outside any template.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from '../../../server/src/documents';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';
import { templateAtOffset } from '../../../server/src/features/jinjaDocument';
import { validationIfDone } from '../../../server/src/documentValidation';
import { sampleManifest } from '../../../server/src/warmUpSamples';

/** What a feature reads from the answer: which template, which character, and its context kind. */
function answer(doc: Parameters<typeof templateAtOffset>[0], offset: number): string {
  const at = templateAtOffset(doc, offset);
  return at ? JSON.stringify([at.template.text, at.template.kind, at.template.start, at.template.offsets[at.index], at.index]) : 'none';
}

test('templateAtOffset answers the same from validation’s templates as from the node under the cursor, at every offset', () => {
  // The sample's templates in plain, double-quoted, folded and literal scalars, plus single quotes.
  const text = sampleManifest().replace(
    '    http_method: GET\n',
    [
      '    http_method: GET',
      '    request_headers:',
      "      X-Kind: '{{ config[''kind''] }}'",
      "      '{{ config[\"header\"] }}': '{{ config[''value''] }}'",
      '      "X-{{ 1 }}": plain {{ 2 }}',
      '      X-Flow: {a: "{{ config.a }}", b: "{{ config.b }}"}',
      '    request_parameters:',
      "      - '{{ not_a_key }}': 1",
      '      "quoted key":   "{{ config.q }}"   # {{ in a comment }}',
      '    description: "{{ in a field that is not interpolated }}"',
      '',
    ].join('\n'),
  );
  const validated = new ManifestDocuments().get(TextDocument.create('file:///a.yaml', 'yaml', 1, text));
  provideDiagnostics(validated);
  assert.ok(validationIfDone(validated), 'validation ran on the first document');
  const fresh = new ManifestDocuments().get(TextDocument.create('file:///b.yaml', 'yaml', 1, text));
  let inTemplates = 0;
  for (let offset = 0; offset <= text.length; offset++) {
    const expected = answer(fresh, offset);
    assert.equal(answer(validated, offset), expected, `offset ${offset}: ${JSON.stringify(text.slice(offset - 10, offset + 10))}`);
    if (expected !== 'none') inTemplates++;
  }
  // The fresh document never validated, so it took the node-under-the-cursor way throughout.
  assert.equal(validationIfDone(fresh), undefined);
  assert.ok(inTemplates > 500, `offsets inside templates: ${inTemplates}`);
});
