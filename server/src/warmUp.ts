// Runs the server's validation, completion and hover over sample manifests while the server starts,
// and js-yaml over YAML in every layout, so the code paths a real manifest takes (block splitting,
// js-yaml and `yaml` parsing, references, `$parameters`, every common component validator, templates
// in each scalar style, locating many findings, conversion) are compiled and warm when the first
// file arrives. The texts are in warmUpSamples.ts. Without it the first open of a manifest costs two
// to three times the CPU of the next ones.
import { CORE_SCHEMA, load } from 'js-yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { spanToRange } from './convert';
import { ManifestDocuments } from './documents';
import { catalogIndex } from './features/catalogIndex';
import { provideCompletion } from './features/completion';
import { provideDiagnostics } from './features/diagnostics';
import { provideHover } from './features/hover';
import { sampleManifest, sampleWithUnknownFields, yamlVarietySample } from './warmUpSamples';

/**
 * Validates, edits, re-validates, completes and hovers over the sample three times, reads the YAML
 * variety sample, and validates the sample with many findings. Throws only on a server bug (the
 * caller guards it).
 */
export function warmUpServer(): void {
  // One round compiles the code; V8 optimizes what runs repeatedly, and three rounds brought the
  // first open's CPU time to within 1.2-1.5x of the next ones (one round: 2x) for ~150 ms at start.
  for (let round = 0; round < 3; round++) warmUpOnce();
  // js-yaml reads every block of every file, and the rounds above give it too little to optimize.
  // What it reads matters more than how much: after 60 reads of the sample, the first open still ran
  // its reader half cold wherever a manifest used a layout the sample lacks (quickbooks' sequences at
  // their key's indentation: its blocks took 40-49 ms against 13-16 once warm). 150 reads of a text
  // in every layout (~90 ms at start) bring that to 15-24 ms; fresh-server opens went from 148 to
  // 129 ms on quickbooks and from 93 to 68 ms on opsgenie (medians of 12, interleaved).
  const text = yamlVarietySample(1);
  for (let i = 0; i < 150; i++) load(text, { schema: CORE_SCHEMA });
  // Real manifests often open with many findings (opsgenie: 516 fields the CDK ignores), each one
  // made, located and converted; the sample has one. Two validations of a six-stream sample with
  // an unknown field in each component (42 findings, ~15 ms at start) took a few milliseconds off
  // opsgenie's and quickbooks' first opens (medians of 10-16 interleaved fresh servers).
  const withFindings = sampleWithUnknownFields();
  for (let i = 0; i < 2; i++)
    provideDiagnostics(new ManifestDocuments().get(TextDocument.create(`warmup:findings${i}.yaml`, 'yaml', 1, withFindings)));
}

function warmUpOnce(): void {
  const text = sampleManifest();
  const docs = new ManifestDocuments();
  const uri = 'warmup:manifest.yaml';
  const first = TextDocument.create(uri, 'yaml', 1, text);
  provideDiagnostics(docs.get(first));
  // An edit inside one stream: the incremental model reuses the other blocks.
  const at = text.indexOf('field_name: cursor') + 'field_name: cursor'.length;
  const edited = TextDocument.create(uri, 'yaml', 2, `${text.slice(0, at)}x${text.slice(at)}`);
  const doc = docs.get(edited);
  provideDiagnostics(doc);
  const ctx = { index: catalogIndex() };
  for (const needle of ['inject_into: request_parameter', "config['kind']", 'type: RecordFilter', 'cursor_field: updated_at']) {
    const offset = edited.getText().indexOf(needle) + needle.length - 2;
    const position = spanToRange(edited, { start: offset, end: offset }).start;
    provideCompletion(ctx, doc, { textDocument: { uri }, position });
    provideHover(ctx, doc, { textDocument: { uri }, position });
  }
}
