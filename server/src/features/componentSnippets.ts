// The text of "complete" completion items: a component with every field it requires plus the few
// an author almost always writes (a paginator's cursor_value and stop_condition, a requester's url…),
// nested components expanded the same way. Lines are written relative to the component's first key
// (column 0); completionLayout.ts places them for the client.
import type { FieldInfo, FormatIndex } from './formatIndex';

/**
 * Fields that are not required by the format but that a working component nearly always has,
 * in the order they are written. A required field is always included, whether listed or not.
 */
const ALMOST_ALWAYS: Readonly<Record<string, readonly string[]>> = {
  DeclarativeStream: ['name', 'primary_key'],
  HttpRequester: ['url', 'http_method'],
  DefaultPaginator: ['page_token_option'],
  CursorPagination: ['cursor_value', 'stop_condition'],
  PageIncrement: ['page_size'],
  OffsetIncrement: ['page_size'],
  ApiKeyAuthenticator: ['api_token', 'inject_into'],
  RequestOption: ['inject_into', 'field_name'],
  CheckStream: ['stream_names'],
  RecordFilter: ['condition'],
  IncrementingCountCursor: ['start_value'],
  BasicHttpAuthenticator: ['password'],
  OAuthAuthenticator: ['client_id', 'client_secret', 'refresh_token', 'token_refresh_endpoint'],
  MinMaxDatetime: ['datetime'],
};

/** Which component a nested slot of a complete item gets, when the slot accepts several. */
const NESTED_CHOICE: Readonly<Record<string, string>> = {
  'DeclarativeStream.retriever': 'SimpleRetriever',
  'SimpleRetriever.requester': 'HttpRequester',
  'RecordSelector.extractor': 'DpathExtractor',
  'DefaultPaginator.pagination_strategy': 'CursorPagination',
  'DefaultPaginator.page_token_option': 'RequestOption',
  'DatetimeBasedCursor.start_datetime': 'MinMaxDatetime',
  'DeclarativeSource.check': 'CheckStream',
  'DeclarativeSource.streams': 'DeclarativeStream',
};

/** Slots whose complete item comes in one variant per accepted component (the others vary too much). */
export const VARIANT_SLOTS: Readonly<Record<string, string>> = {
  DefaultPaginator: 'pagination_strategy',
};

/** Interpolated fields that are always a template: inserted as `"{{ … }}"` with the cursor inside. */
const TEMPLATE_FIELDS = new Set(['cursor_value', 'stop_condition', 'condition']);

/** Tab-stop numbering shared by one snippet. */
export class TabStops {
  private next = 1;
  take(): number {
    return this.next++;
  }
}

/** `${n|a,b|}` snippet choice (escaped), or a plain tab stop when there is nothing to choose. */
export function choiceSnippet(n: number, choices: readonly (string | number | boolean)[]): string {
  if (choices.length === 0) return `$${n}`;
  return `\${${n}|${choices.map((c) => String(c).replace(/[,|\\$}]/g, (m) => `\\${m}`)).join(',')}|}`;
}

/** Escapes text for a snippet (literal `$`, `}` and `\`). */
export function snippetText(text: string): string {
  return text.replace(/[$}\\]/g, (m) => `\\${m}`);
}

/** The fields a complete `type` writes: required ones in catalog order, then the almost-always ones. */
export function completeFields(index: FormatIndex, type: string): { name: string; info: FieldInfo }[] {
  const fields = index.fields(type);
  const extra = ALMOST_ALWAYS[type] ?? [];
  const chosen = fields.filter(({ name, info }) => name !== 'type' && (info.required || extra.includes(name)));
  const rank = (name: string) => (extra.includes(name) ? extra.indexOf(name) : -1);
  const nested = (f: { info: FieldInfo }) => Number(!!f.info.components?.length);
  // Plain values before nested components (a stream's name before its retriever); within each,
  // required first (catalog order), then the extras in the order listed above.
  return chosen.sort(
    (a, b) =>
      nested(a) - nested(b) || Number(!a.info.required) - Number(!b.info.required) || (a.info.required ? 0 : rank(a.name) - rank(b.name)),
  );
}

/** The component a nested slot of a complete item gets, or undefined to leave the choice to the author. */
export function nestedChoice(_index: FormatIndex, parent: string, field: string, info: FieldInfo, variant?: string): string | undefined {
  if (variant && VARIANT_SLOTS[parent] === field) return variant;
  const table = NESTED_CHOICE[`${parent}.${field}`];
  if (table && info.components?.includes(table)) return table;
  const plain = (info.components ?? []).filter((c) => !c.startsWith('Custom'));
  return plain.length === 1 ? plain[0] : undefined;
}

/**
 * Lines (relative to column 0) of a complete `type`: `type: T` then its fields; a nested component
 * slot with one sensible choice is expanded (at most `depth` levels), others get a choice of types.
 */
export function completeComponentLines(index: FormatIndex, type: string, stops: TabStops, depth = 4, variant?: string): string[] {
  const lines = [`type: ${type}`];
  for (const { name, info } of completeFields(index, type)) lines.push(...fieldLines(index, type, name, info, stops, depth, variant));
  return lines;
}

/** The lines of one field of a complete component. */
function fieldLines(
  index: FormatIndex,
  parent: string,
  name: string,
  info: FieldInfo,
  stops: TabStops,
  depth: number,
  variant?: string,
): string[] {
  if (info.components?.length) {
    const dash = info.list && !info.alsoSingle ? '- ' : '';
    const pad = ' '.repeat(dash.length);
    const chosen = depth > 0 ? nestedChoice(index, parent, name, info, variant) : undefined;
    if (!chosen) return [`${name}:`, `  ${dash}type: ${choiceSnippet(stops.take(), info.components)}`];
    const inner = completeComponentLines(index, chosen, stops, depth - 1);
    return [`${name}:`, ...inner.map((l, i) => `  ${i === 0 ? dash : pad}${l}`)];
  }
  if (info.enum?.length) {
    const choices =
      info.default !== undefined && info.enum.includes(info.default as never)
        ? [info.default as string, ...info.enum.filter((v) => v !== info.default)]
        : info.enum;
    return [`${name}: ${choiceSnippet(stops.take(), choices)}`];
  }
  if (name === 'connection_specification') {
    // One input, named once and mirrored into `required` (the same tab stop).
    const input = stops.take();
    return [
      `${name}:`,
      '  type: object',
      `  required: [\${${input}:api_key}]`,
      '  properties:',
      `    \${${input}:api_key}:`,
      '      type: string',
      '      airbyte_secret: true',
    ];
  }
  // Most APIs key their records by `id`; an empty primary_key would not validate.
  if (name === 'primary_key') return [`${name}: \${${stops.take()}:id}`];
  if (name === 'http_method') return [`${name}: ${choiceSnippet(stops.take(), ['GET', 'POST'])}`];
  if (TEMPLATE_FIELDS.has(name)) return [`${name}: "{{ $${stops.take()} }}"`];
  const types = info.types ?? [];
  if (types.length === 1 && types[0] === 'array') return [`${name}: [$${stops.take()}]`];
  if (types.length === 1 && types[0] === 'object') return [`${name}: {$${stops.take()}}`];
  return [`${name}: $${stops.take()}`];
}
