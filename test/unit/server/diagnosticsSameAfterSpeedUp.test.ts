// The open-time shortcuts must not change a single diagnostic: template scalars found by indentation
// when their value starts on the line after the key (quickScalar.ts), and the line index the
// conversion builds for many problems (convert.ts). The reference is the slow path: positions
// through the parser (indentation locator off) and each problem converted with the document's
// own positionAt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { problemsToDiagnostics, problemToDiagnostic } from '../../../server/src/convert';
import { ManifestDocuments } from '../../../server/src/documents';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';
import { quickLocateSwitch } from '../../../server/src/runtime/manifest/locator/quickLocate';
import { validateManifestDetailed } from '../../../server/src/runtime/validation/validateManifest';
import type { Problem } from '../../../server/src/runtime/problems';
import { sampleManifest } from '../../../server/src/warmUpSamples';

function referenceDiagnostics(text: string) {
  const doc = new ManifestDocuments().get(TextDocument.create('file:///m.yaml', 'yaml', 1, text));
  quickLocateSwitch.enabled = false;
  try {
    return validateManifestDetailed(doc.parsed).problems.map((p) => problemToDiagnostic(doc.textDocument, p));
  } finally {
    quickLocateSwitch.enabled = true;
  }
}

function compare(label: string, text: string): number {
  const fast = provideDiagnostics(new ManifestDocuments().get(TextDocument.create('file:///m.yaml', 'yaml', 1, text)));
  assert.deepEqual(fast, referenceDiagnostics(text), label);
  return fast.length;
}

/** A template value on the line after its key, inside a list item, with more than 64 problems. */
function manyProblemsManifest(): string {
  const base = sampleManifest().replace(
    '            stop_condition: "{{ not response.get(\'next\') }}"',
    '            stop_condition:\n              \'{{ not response.get("next", {})\n              }}\'',
  );
  assert.notEqual(base, sampleManifest());
  // Unknown fields in the requester: one warning each.
  const unknown = Array.from({ length: 80 }, (_, i) => `    unknown_field_${i}: x`).join('\n');
  return base.replace('    http_method: GET\n', `    http_method: GET\n${unknown}\n`);
}

test('the same diagnostics as the parser path on the sample and on a manifest with many problems', () => {
  assert.ok(compare('sample', sampleManifest()) > 0);
  assert.ok(compare('many problems', manyProblemsManifest()) > 64);
  // Windows line endings go through the document's own index.
  assert.ok(compare('many problems, CRLF', manyProblemsManifest().replace(/\n/g, '\r\n')) > 64);
});

test('the many-problems line index gives positionAt at every offset', () => {
  const text = 'a: 1\n\n  b: two\n'.repeat(4) + 'last line without break';
  const doc = TextDocument.create('file:///t.yaml', 'yaml', 1, text);
  const problems: Problem[] = [];
  for (let start = -2; start <= text.length + 2; start++) {
    problems.push({
      code: 'x',
      severity: 'warning',
      message: `at ${start}`,
      span: { start, end: Math.min(start + 3, text.length + 5) },
      related: [{ message: 'r', span: { start: text.length - start, end: text.length } }],
    });
  }
  assert.ok(problems.length >= 64);
  assert.deepEqual(
    problemsToDiagnostics(doc, problems),
    problems.map((p) => problemToDiagnostic(doc, p)),
  );
});

test('the same diagnostics as the parser path on corpus manifests when ../shared is beside the checkout', (t) => {
  const dir = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'manifests');
  if (!existsSync(dir)) return t.skip('../shared/corpus is not present');
  // opsgenie: 552 problems and templates whose value starts on the line after the key.
  const counts = ['source-opsgenie', 'source-amplitude', 'source-mention', 'source-okta', 'source-quickbooks'].map((name) =>
    compare(name, readFileSync(join(dir, `${name}.yaml`), 'utf8')),
  );
  assert.ok(counts[0] > 500, `opsgenie has ${counts[0]} diagnostics`);
});
