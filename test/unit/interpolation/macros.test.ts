// Spec §3.7: every macro, including datetime text forms and the special %s/%ms/%_ms formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalText, interpolate } from '../../../server/src/runtime/interpolation';
import { ev, env, kindOf } from './helpers';

const text = (t: string, config: Record<string, unknown> = {}) => evalText(t, { config, parameters: {} }, {}, env);

test('now_utc: aware UTC datetime, strftime, arithmetic with duration', () => {
  assert.equal(ev('{{ now_utc() }}', {}, 'string'), '2021-09-01 00:00:00+00:00');
  assert.equal(ev("{{ now_utc().strftime('%Y-%m-%dT%H:%M:%SZ') }}"), '2021-09-01T00:00:00Z');
  assert.equal(ev("{{ (now_utc() - duration('PT1H')).isoformat() }}"), '2021-08-31T23:00:00+00:00');
  assert.equal(ev("{{ (now_utc() + duration('P1M')).strftime('%Y-%m-%d') }}"), '2021-10-01');
});

test('today_utc and today_with_timezone', () => {
  assert.equal(ev('{{ today_utc() }}', {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ today_utc().strftime('%d/%m/%Y') }}"), '01/09/2021');
  // Kiritimati is UTC+14: already the 1st there at 00:00 UTC → still 2021-09-01; Honolulu (UTC-10) is the 31st.
  assert.equal(ev("{{ today_with_timezone('Pacific/Kiritimati') }}", {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ today_with_timezone('Pacific/Honolulu') }}", {}, 'string'), '2021-08-31');
  assert.equal(
    kindOf(() => ev("{{ today_with_timezone('Not/AZone') }}")),
    'value_error',
  );
});

test('timestamp: numbers truncate to int, strings give float epoch seconds', () => {
  assert.equal(ev('{{ timestamp(100.9) }}'), 100);
  assert.equal(ev("{{ timestamp('2022-02-28') }}"), 1646006400);
  assert.equal(text("{{ timestamp('2022-02-28') }}"), '1646006400.0');
  assert.equal(text("{{ timestamp('2022-02-28T01:00:00+01:00') }}"), '1646006400.0');
});

test('str_to_datetime: ISO parse, naive → UTC, converted to UTC; invalid input fails', () => {
  assert.equal(ev("{{ str_to_datetime('2022-01-14') }}", {}, 'string'), '2022-01-14 00:00:00+00:00');
  assert.equal(ev("{{ str_to_datetime('2022-01-14T05:06:07+02:00') }}", {}, 'string'), '2022-01-14 03:06:07+00:00');
  assert.equal(ev("{{ str_to_datetime('2022-01-14 05:06:07.5Z') }}", {}, 'string'), '2022-01-14 05:06:07.500000+00:00');
  assert.equal(
    kindOf(() => ev("{{ str_to_datetime('14/01/2022') }}")),
    'value_error',
  );
});

test('max and min: several arguments or one iterable', () => {
  assert.equal(ev('{{ max(1, 5, 3) }}'), 5);
  assert.equal(ev('{{ min([4, 2, 8]) }}'), 2);
  assert.equal(ev("{{ max('2021-01-01', '2022-01-01') }}"), '2022-01-01');
});

test('day_delta: default format and custom format, negative days', () => {
  assert.equal(ev('{{ day_delta(1) }}', {}, 'string'), '2021-09-02T00:00:00.000000+0000');
  assert.equal(ev("{{ day_delta(-1, format='%Y-%m-%d') }}", {}, 'string'), '2021-08-31');
});

test('duration: days, hours, weeks, calendar months, combined', () => {
  assert.equal(ev("{{ duration('P1D') }}", {}, 'string'), '1 day, 0:00:00');
  assert.equal(ev("{{ duration('PT1H') }}", {}, 'string'), '1:00:00');
  assert.equal(ev("{{ duration('P6DT23H') }}", {}, 'string'), '6 days, 23:00:00');
  assert.equal(ev("{{ duration('P2W') }}", {}, 'string'), '14 days, 0:00:00');
  assert.equal(ev("{{ duration('P1M') }}", {}, 'string'), '1 month, 0:00:00');
  assert.equal(ev("{{ duration('P1D').total_seconds() }}"), 86400);
  assert.equal(
    kindOf(() => ev("{{ duration('1 day') }}")),
    'value_error',
  );
});

test('format_datetime: datetime, int epoch, string with and without input_format, special formats', () => {
  assert.equal(ev("{{ format_datetime(now_utc(), '%Y-%m-%d') }}", {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ format_datetime(1630454400, '%Y-%m-%dT%H:%M:%SZ') }}", {}, 'string'), '2021-09-01T00:00:00Z');
  assert.equal(ev("{{ format_datetime('2021-09-01T10:20:30Z', '%s') }}"), 1630491630);
  assert.equal(ev("{{ format_datetime('2021-09-01T10:20:30Z', '%ms') }}"), 1630491630000);
  assert.equal(ev("{{ format_datetime('2021-09-01T10:20:30Z', '%s_as_float') }}"), 1630491630);
  assert.equal(text("{{ format_datetime('2021-09-01T10:20:30Z', '%s_as_float') }}"), '1630491630.0');
  assert.equal(ev("{{ format_datetime('2021-09-01T10:20:30.123456Z', '%epoch_microseconds') }}"), 1630491630123456);
  assert.equal(ev("{{ format_datetime('2021-09-01T10:20:30.123456Z', '%Y-%m-%dT%H:%M:%S.%_msZ') }}"), '2021-09-01T10:20:30.123Z');
  assert.equal(ev("{{ format_datetime('01/09/2021', '%Y-%m-%d', '%d/%m/%Y') }}", {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ format_datetime(1630454400000, '%Y-%m-%d', '%ms') }}", {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ format_datetime('2021-09-01T10:00:00+02:00', '%H:%M%z') }}", {}, 'string'), '08:00+0000');
});

test('sanitize_url, camel_case_to_snake_case, generate_uuid', () => {
  assert.equal(ev("{{ sanitize_url('a b/c?d=e&f') }}", {}, 'string'), 'a+b%2Fc%3Fd%3De%26f');
  assert.equal(ev("{{ camel_case_to_snake_case('CamelCase') }}", {}, 'string'), 'camel_case');
  assert.equal(ev("{{ camel_case_to_snake_case('someHTTPValue') }}", {}, 'string'), 'some_h_t_t_p_value');
  assert.match(String(ev('{{ generate_uuid() }}', {}, 'string')), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('datetime fields and methods used by manifests', () => {
  assert.equal(ev("{{ str_to_datetime('2022-03-04T05:06:07Z').day }}"), 4);
  assert.equal(ev("{{ (now_utc() - str_to_datetime('2021-08-30T00:00:00Z')).days }}"), 2);
  assert.equal(ev("{{ now_utc().replace(day=15).strftime('%Y-%m-%d') }}"), '2021-09-15');
  assert.equal(ev("{{ now_utc().strftime('%s') }}"), 1630454400);
  assert.equal(ev('{{ now_utc().timestamp() | int }}'), 1630454400);
  assert.equal(ev("{{ now_utc() > str_to_datetime('2020-01-01') }}", {}, 'boolean'), true);
});

test('now_utc() on the real clock has microseconds, as datetime.now() in the reference (issue 20)', () => {
  const micros = Array.from({ length: 50 }, () => Number(interpolate('{{ now_utc().microsecond }}', {}, 'jinja')));
  // A millisecond clock would give only multiples of 1000.
  assert.ok(
    micros.some((m) => m % 1000 !== 0),
    `microseconds: ${micros.slice(0, 5).join(', ')}…`,
  );
  const text = String(interpolate('{{ now_utc() }}', {}, 'jinja'));
  assert.match(text, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/);
  const real = Date.now();
  const [, iso] = /^(\S+ \S+?)(?:\.\d+)?\+00:00$/.exec(text) ?? [];
  assert.ok(Math.abs(new Date(`${iso.replace(' ', 'T')}Z`).getTime() - real) < 5000, 'close to the real clock');
});
