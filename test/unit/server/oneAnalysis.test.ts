// One analysis per document version (ARCHITECTURE.md, "One analysis per document version"): a version
// is parsed once, owns its one locator, and its validation runs once and is shared by every reader;
// the next version is a new analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManifestDocuments } from '../../../server/src/documents';
import { documentResolved, documentValidation, validationIfDone } from '../../../server/src/documentValidation';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';

const text = `version: 6.0.0
type: DeclarativeSource
check:
  type: CheckStream
  stream_names: [items]
streams:
  - type: DeclarativeStream
    name: items
    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url_base: https://api.example.com
        path: /items
      record_selector:
        type: RecordSelector
        extractor:
          type: DpathExtractor
          field_path: []
`;

test('a version is analysed once: the same document, model, locator, parse and validation for every reader', () => {
  const docs = new ManifestDocuments();
  const doc = docs.get({ uri: 'file:///one.yaml', version: 1, getText: () => text });
  assert.equal(docs.get({ uri: 'file:///one.yaml', version: 1, getText: () => text }), doc);
  assert.equal(validationIfDone(doc), undefined);
  provideDiagnostics(doc);
  const validation = validationIfDone(doc);
  assert.ok(validation, 'diagnostics ran the validation of this version');
  assert.equal(documentValidation(doc), validation, 'a second reader gets the same run');
  assert.equal(doc.locator, doc.locator);
  assert.equal(doc.parsed.locator, doc.locator, 'validation locates through the version’s one locator');
  assert.equal(doc.model, doc.model);
  assert.equal(documentResolved(doc), documentResolved(doc));

  const next = docs.get({ uri: 'file:///one.yaml', version: 2, getText: () => text.replace('/items', '/things') });
  assert.notEqual(next, doc);
  assert.notEqual(next.locator, doc.locator);
  assert.equal(validationIfDone(next), undefined, 'a new version has a new analysis');
});
