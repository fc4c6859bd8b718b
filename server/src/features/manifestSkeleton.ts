// The guided start: the skeleton of a new manifest (offered by completion in an empty file and
// inserted by the "New connector manifest" command) and the CDK versions `version:` completes to.
// The skeleton is a source with `version`, `type`, `check`, `spec` with one input, and one stream
// with its requester and record selector, each written as its "complete" item would be.
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type Range } from 'vscode-languageserver';
import { allComponents } from '../runtime';
import { compareVersions, isBlankOrComment, parseVersion } from '../runtime';
import type { FormatIndex } from './formatIndex';
import { choiceSnippet, completeComponentLines, TabStops } from './componentSnippets';
import type { layOut } from './completionLayout';

/** The CDK versions the catalog knows (where components and fields were added or removed, and the `version` example), latest first. */
export function knownCdkVersions(): string[] {
  const found = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && parseVersion(v)) found.add(v);
  };
  for (const c of allComponents()) {
    add(c.addedIn);
    add(c.removedIn);
    for (const f of Object.values(c.fields)) {
      add(f.addedIn);
      add(f.removedIn);
    }
  }
  add(allComponents().find((c) => c.type === 'DeclarativeSource')?.fields.version?.example);
  return [...found].sort((a, b) => compareVersions(parseVersion(b)!, parseVersion(a)!));
}

/** `version:` value items: the known versions, latest first. */
export function versionItems(range: Range): CompletionItem[] {
  return knownCdkVersions().map((v, i) => ({
    label: v,
    kind: CompletionItemKind.Value,
    detail: i === 0 ? 'latest CDK version the catalog knows' : 'CDK version',
    sortText: String(i).padStart(3, '0'),
    textEdit: { range, newText: v },
  }));
}

/** True when the document holds nothing but comments, blank lines and the word being typed. */
export function isEmptyManifest(text: string, typed: { start: number; end: number }): boolean {
  const rest = text.slice(0, typed.start) + text.slice(typed.end);
  return rest.split('\n').every(isBlankOrComment);
}

/** The skeleton's lines (relative to column 0), as a snippet: the stream's name is mirrored into `check`. */
export function skeletonLines(index: FormatIndex): string[] {
  const stops = new TabStops();
  const version = choiceSnippet(stops.take(), knownCdkVersions());
  const name = stops.take();
  const spec = completeComponentLines(index, 'Spec', stops);
  const stream = completeComponentLines(index, 'DeclarativeStream', stops).map((l) =>
    l.startsWith('name: ') ? `name: \${${name}:items}` : l,
  );
  return [
    `version: ${version}`,
    'type: DeclarativeSource',
    'check:',
    '  type: CheckStream',
    `  stream_names: [\${${name}:items}]`,
    'spec:',
    ...spec.map((l) => `  ${l}`),
    'streams:',
    ...stream.map((l, i) => `  ${i === 0 ? '- ' : '  '}${l}`),
  ];
}

/** The completion item that writes the skeleton into an empty file. */
export function skeletonItem(index: FormatIndex, range: Range, place: (lines: string[]) => ReturnType<typeof layOut>): CompletionItem {
  const { newText, mode } = place(skeletonLines(index));
  return {
    label: 'New connector manifest (skeleton)',
    kind: CompletionItemKind.Snippet,
    detail: 'version, check, spec with one input, one stream with requester and record selector',
    documentation: {
      kind: 'markdown',
      value:
        'A manifest to start from: fill in the stream name, the input, the URL and the `field_path` of the records (Tab moves to the next).',
    },
    sortText: '!0',
    filterText: 'version type DeclarativeSource new manifest',
    preselect: true,
    textEdit: { range, newText },
    insertTextFormat: InsertTextFormat.Snippet,
    ...mode,
  };
}
