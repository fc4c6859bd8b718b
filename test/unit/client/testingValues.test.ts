import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldTitle, validateTestingValues } from '../../../client/src/testingValuesValidation';
import { withoutSecrets } from '../../../server/src/runtime/shared/secretFields';

const spec = {
  type: 'object',
  required: ['api_key', 'credentials'],
  properties: {
    api_key: { type: 'string', airbyte_secret: true },
    start_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    page_size: { type: 'integer', minimum: 1 },
    credentials: {
      type: 'object',
      oneOf: [
        {
          title: 'OAuth',
          required: ['auth_type', 'client_id', 'client_secret'],
          properties: {
            auth_type: { const: 'oauth' },
            client_id: { type: 'string' },
            client_secret: { type: 'string', airbyte_secret: true },
          },
        },
        {
          title: 'Token',
          required: ['auth_type', 'token'],
          properties: { auth_type: { const: 'token' }, token: { type: 'string', airbyte_secret: true } },
        },
      ],
    },
  },
};

test('valid values give no problems', () => {
  assert.deepEqual(
    validateTestingValues(spec, { api_key: 'k', start_date: '2024-01-31', credentials: { auth_type: 'token', token: 't' } }),
    [],
  );
});

test('missing required fields and pattern mismatches are reported on their field paths', () => {
  const problems = validateTestingValues(spec, { start_date: '31/01/2024', credentials: { auth_type: 'token', token: 't' } });
  assert.deepEqual(problems.map((p) => p.path).sort(), ['/api_key', '/start_date']);
  assert.match(problems.find((p) => p.path === '/start_date')!.message, /pattern/);
});

test('a failed oneOf reports the errors of the closest branch only', () => {
  const problems = validateTestingValues(spec, { api_key: 'k', credentials: { auth_type: 'oauth', client_id: 'id' } });
  assert.deepEqual(
    problems.map((p) => ({ path: p.path, message: p.message })),
    [{ path: '/credentials/client_secret', message: 'is required.' }],
  );
});

test('date, date-time and email formats are checked; unknown formats are accepted', () => {
  const f = {
    type: 'object',
    properties: {
      d: { type: 'string', format: 'date' },
      t: { type: 'string', format: 'date-time' },
      e: { type: 'string', format: 'email' },
      x: { type: 'string', format: 'airbyte-custom' },
    },
  };
  assert.deepEqual(validateTestingValues(f, { d: '2024-01-31', t: '2024-01-31T10:00:00Z', e: 'a@b.c', x: 'anything' }), []);
  const problems = validateTestingValues(f, { d: '31/01/2024', t: 'yesterday', e: 'nobody' });
  assert.deepEqual(problems.map((p) => p.path).sort(), ['/d', '/e', '/t']);
  assert.match(problems.find((p) => p.path === '/d')!.message, /YYYY-MM-DD/);
});

test('values that are not an object are refused; a missing spec accepts any object', () => {
  assert.equal(validateTestingValues(spec, [1, 2]).length, 1);
  assert.deepEqual(validateTestingValues(null, { anything: 1 }), []);
});

test('problems never echo the value that was entered', () => {
  const problems = validateTestingValues(spec, { api_key: 12345678, credentials: { auth_type: 'token', token: 't' } });
  assert.equal(problems.length, 1);
  assert.doesNotMatch(problems[0].message, /12345678/);
});

test('export without secrets drops airbyte_secret fields at every level, including oneOf branches', () => {
  const values = { api_key: 'k', start_date: '2024-01-01', credentials: { auth_type: 'oauth', client_id: 'id', client_secret: 's' } };
  assert.deepEqual(withoutSecrets(spec, values), { start_date: '2024-01-01', credentials: { auth_type: 'oauth', client_id: 'id' } });
  assert.deepEqual(values.credentials.client_secret, 's', 'the input is not modified');
});

test('errors name the field by its titles, and a pattern is explained by its pattern_descriptor', () => {
  const titled = {
    type: 'object',
    required: ['credentials'],
    properties: {
      start_date: { type: 'string', title: 'Start date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', pattern_descriptor: 'YYYY-MM-DD' },
      accounts: {
        type: 'array',
        title: 'Accounts',
        items: { type: 'object', properties: { id: { type: 'string', title: 'Account ID' } } },
      },
      credentials: {
        type: 'object',
        title: 'Authentication',
        oneOf: [
          {
            title: 'OAuth',
            required: ['auth_type', 'client_id'],
            properties: { auth_type: { const: 'oauth' }, client_id: { type: 'string', title: 'Client ID' } },
          },
        ],
      },
    },
  };
  const problems = validateTestingValues(titled, { start_date: '1/2/2024', credentials: { auth_type: 'oauth' } });
  const byPath = Object.fromEntries(problems.map((p) => [p.path, p]));
  assert.equal(byPath['/start_date'].title, 'Start date');
  assert.equal(byPath['/start_date'].message, 'must be written as YYYY-MM-DD.');
  assert.equal(byPath['/credentials/client_id'].title, 'Authentication › Client ID');
  assert.equal(fieldTitle(titled, '/accounts/1/id'), 'Accounts › item 2 › Account ID');
  assert.equal(fieldTitle(titled, '/unknown'), 'unknown');
});

test('spec patterns run on RE2: a backtracking pattern answers at once; JavaScript syntax is translated; lookaround is refused clearly', () => {
  const spec = {
    type: 'object',
    properties: { account: { type: 'string', pattern: '^([a-zA-Z0-9_]+)*$' }, code: { type: 'string', pattern: '^\\u0041[^]$' } },
  };
  const problems = validateTestingValues(spec, { account: `${'a'.repeat(40)}!`, code: 'AB' });
  assert.deepEqual(
    problems.map((p) => p.path),
    ['/account'],
    JSON.stringify(problems),
  );
  assert.deepEqual(validateTestingValues(spec, { account: 'acct_42', code: 'Az' }), []);
  const lookahead = validateTestingValues({ type: 'object', properties: { a: { type: 'string', pattern: '^(?=x)x$' } } }, { a: 'x' });
  assert.match(lookahead[0].message, /cannot be checked: patterns run on RE2/);
});
