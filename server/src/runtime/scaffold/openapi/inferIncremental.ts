// A suggested incremental cursor: a date-like query filter (`since`, `updated_after`, a parameter of
// format date-time) paired with a date-like record field (`updated_at`, `modified`). Both must be
// there; the author still checks that the filter compares with that field.
import { addInput, configRef, type NotedComponent, type SpecInput } from '../connectorDraft';
import type { ApiOperation, ApiParameter } from './operations';
import { obj } from './operations';
import { properties } from './recordSchema';

const FILTER_NAME =
  /^(since|updated_since|modified_since|changed_since|updated_after|modified_after|changed_after|created_after|created_since|updated_from|modified_from|start_date|startdate|start_time|starttime|from_date|date_from|updated_at_min|updated_at_from|min_updated_at|updatedsince|modifiedsince|updatedafter|modifiedafter|createdafter|last_modified|lastmodified|if_modified_since|updated_at\[gte\]|updated\[gte\]|updated_at\[gt\])$/i;
const FIELD_NAMES = [
  'updated_at',
  'updatedat',
  'updated',
  'modified_at',
  'modifiedat',
  'modified',
  'last_modified',
  'lastmodified',
  'date_modified',
  'last_updated',
  'lastupdated',
  'changed_at',
  'created_at',
  'createdat',
  'created',
  'date_created',
  'timestamp',
  'date',
];

/** The cursor for `op` (undefined when no filter/field pair is found); the filter's name is consumed. */
export function inferIncremental(
  op: ApiOperation,
  item: Record<string, unknown> | undefined,
  inputs: SpecInput[],
): { cursor?: NotedComponent; consumed: string[] } {
  if (!item) return { consumed: [] };
  const filter = op.parameters.find((p) => p.in === 'query' && isDateFilter(p));
  if (!filter) return { consumed: [] };
  const field = cursorField(item, /created/i.test(filter.name));
  if (!field) return { consumed: [] };
  const dateOnly = filter.schema.format === 'date';
  const format = dateOnly ? '%Y-%m-%d' : '%Y-%m-%dT%H:%M:%SZ';
  const start = configRef(
    addInput(inputs, {
      name: 'start_date',
      title: 'Start Date',
      type: 'string',
      format: 'date-time',
      required: true,
      description: 'Records changed before this moment are not read (UTC, e.g. 2024-01-01T00:00:00Z).',
      why: `the start of the suggested incremental cursor (query filter "${filter.name}")`,
    }),
  );
  return {
    consumed: [filter.name],
    cursor: {
      why: `suggested: query filter "${filter.name}" and the record's "${field.name}" (check that the filter compares with that field)`,
      value: {
        type: 'DatetimeBasedCursor',
        cursor_field: field.name,
        datetime_format: format,
        cursor_datetime_formats: field.dateOnly ? ['%Y-%m-%d'] : ['%Y-%m-%dT%H:%M:%S%z', '%Y-%m-%dT%H:%M:%S.%f%z', '%Y-%m-%dT%H:%M:%SZ'],
        start_datetime: { type: 'MinMaxDatetime', datetime: start, datetime_format: '%Y-%m-%dT%H:%M:%SZ' },
        start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: filter.name },
      },
    },
  };
}

function isDateFilter(p: ApiParameter): boolean {
  const format = p.schema.format;
  const type = p.schema.type;
  if (type !== undefined && type !== 'string' && !(Array.isArray(type) && type.includes('string'))) return false;
  if (FILTER_NAME.test(p.name)) return true;
  // A date-time filter whose name says "from" or "after" (`createdFrom`, `updatedAfter`).
  return (format === 'date-time' || format === 'date') && /(since|after|from|start|min|gte?)\b|(Since|After|From|Start|Min)$/i.test(p.name);
}

function cursorField(item: Record<string, unknown>, preferCreated: boolean): { name: string; dateOnly: boolean } | undefined {
  const props = properties(item);
  const lower = new Map(Object.keys(props).map((k) => [k.toLowerCase(), k]));
  const names = preferCreated ? ['created_at', 'createdat', 'created', ...FIELD_NAMES] : FIELD_NAMES;
  for (const n of names) {
    const key = lower.get(n);
    if (key === undefined) continue;
    const s = obj(props[key]);
    const t = s.type;
    const isString = t === undefined || t === 'string' || (Array.isArray(t) && t.includes('string'));
    if (!isString) continue;
    if (s.format !== undefined && s.format !== 'date-time' && s.format !== 'date') continue;
    return { name: key, dateOnly: s.format === 'date' };
  }
  return undefined;
}
