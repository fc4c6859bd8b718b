// Shared helpers of the validation tests: validate a manifest text, and read the text a problem spans.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { validateManifest } from '../../../server/src/runtime/validation/validateManifest';
import type { Problem } from '../../../server/src/runtime/problems';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'manifests');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Problems of `text` except deprecation hints (see `hints`), each with the source text it spans. */
export function check(text: string): (Problem & { at: string })[] {
  return all(text).filter((p) => p.severity !== 'hint');
}

/** Deprecation hints of `text`, each with the source text it spans. */
export function hints(text: string): (Problem & { at: string })[] {
  return all(text).filter((p) => p.severity === 'hint');
}

function all(text: string): (Problem & { at: string })[] {
  return validateManifest(parseManifest(text)).map((p) => ({ ...p, at: text.slice(p.span.start, p.span.end) }));
}

export function errors(text: string) {
  return check(text).filter((p) => p.severity === 'error');
}

/** A minimal valid manifest with one stream whose retriever parts can be replaced. */
export function manifest(opts: { version?: string; requester?: string; paginator?: string; extra?: string } = {}): string {
  const requester =
    opts.requester ??
    [
      '        type: HttpRequester',
      '        url_base: https://api.example.com',
      '        path: /items',
      '        authenticator:',
      '          type: BearerAuthenticator',
      '          api_token: "{{ config[\'token\'] }}"',
    ].join('\n');
  return [
    `version: ${opts.version ?? '6.44.0'}`,
    'type: DeclarativeSource',
    'check:',
    '  type: CheckStream',
    '  stream_names: [items]',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: items',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    requester,
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path: [data]',
    ...(opts.paginator ? ['      paginator:', opts.paginator] : []),
    ...(opts.extra ? [opts.extra] : []),
    '',
  ].join('\n');
}
