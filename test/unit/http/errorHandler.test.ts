// Error handling and retries (§9) with a scripted fetch and a recording sleep: default mapping,
// filters, backoff strategies, Retry-After capped, exhaustion messages, test-read retry disabling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpRequester } from '../../../server/src/runtime/http/requester';
import { createErrorHandler } from '../../../server/src/runtime/http/errorHandler';
import { emptySlice } from '../../../server/src/runtime/records/streamSlice';
import type { HttpResponse } from '../../../server/src/runtime/types';

const res = (status: number, body: unknown = {}, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const input = { slice: emptySlice(), nextPageToken: null, retrieverParts: [] };

function scripted(responses: (HttpResponse | Error)[]) {
  const sleeps: number[] = [];
  let calls = 0;
  const env = {
    fetch: async () => {
      const r = responses[Math.min(calls++, responses.length - 1)];
      if (r instanceof Error) throw r;
      return r;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
  return { env, sleeps, calls: () => calls };
}

test('default mapping (§9.3)', () => {
  const h = createErrorHandler(undefined, {}, {});
  const action = (s: number) => h.interpret(res(s), null);
  assert.deepEqual(action(200), { action: 'SUCCESS', failureType: 'system_error', message: null });
  assert.equal(action(401).failureType, 'config_error');
  assert.equal(action(403).action, 'FAIL');
  assert.equal(action(404).action, 'FAIL');
  assert.equal(action(408).action, 'RETRY');
  assert.equal(action(429).action, 'RATE_LIMITED');
  assert.equal(action(503).action, 'RETRY');
  assert.deepEqual(action(409), { action: 'RETRY', failureType: 'system_error', message: null });
  assert.equal(h.interpret(null, Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).failureType, 'transient_error');
  assert.equal(h.maxRetries, 5);
});

test('filters run before the ok check: http_codes, predicate, error_message_contains (§9.2)', () => {
  const h = createErrorHandler(
    {
      type: 'DefaultErrorHandler',
      response_filters: [
        { type: 'HttpResponseFilter', action: 'IGNORE', http_codes: [404] },
        {
          type: 'HttpResponseFilter',
          action: 'FAIL',
          failure_type: 'config_error',
          error_message_contains: 'quota',
          error_message: 'Quota used up',
        },
        { type: 'HttpResponseFilter', action: 'RETRY', predicate: "{{ response['retry'] }}" },
      ],
    },
    {},
    {},
  );
  assert.equal(h.interpret(res(404), null).action, 'IGNORE');
  assert.deepEqual(h.interpret(res(400, { error: { message: 'daily quota exceeded' } }), null), {
    action: 'FAIL',
    failureType: 'config_error',
    message: 'Quota used up',
  });
  assert.equal(h.interpret(res(200, { retry: 1 }), null).action, 'RETRY');
  assert.equal(h.interpret(res(200, { retry: 0 }), null).action, 'SUCCESS');
});

test('retries 5xx with exponential backoff through env.sleep, then succeeds', async () => {
  const s = scripted([res(500), res(502), res(200, { ok: true })]);
  const r = createHttpRequester({ type: 'HttpRequester', url: 'https://a.com/x' }, {}, {}, s.env);
  const ex = await r.send(input);
  assert.equal(ex.response.status, 200);
  assert.deepEqual(s.sleeps, [1000, 2000]);
});

test('429 honours Retry-After, capped', async () => {
  const s = scripted([res(429, {}, { 'retry-after': '3' }), res(429, {}, { 'retry-after': '3600' }), res(200)]);
  const r = createHttpRequester({ type: 'HttpRequester', url: 'https://a.com/x' }, {}, { maxRetryAfterSeconds: 30 }, s.env);
  await r.send(input);
  assert.deepEqual(s.sleeps, [3000, 30000]);
});

test('backoff strategies: first truthy wait + 1 s; constant and exponential; WaitTimeFromHeader with regex and max', async () => {
  const constant = scripted([res(500), res(200)]);
  await createHttpRequester(
    {
      type: 'HttpRequester',
      url: 'https://a.com/x',
      error_handler: { type: 'DefaultErrorHandler', backoff_strategies: [{ type: 'ConstantBackoffStrategy', backoff_time_in_seconds: 4 }] },
    },
    {},
    {},
    constant.env,
  ).send(input);
  assert.deepEqual(constant.sleeps, [5000]);
  const expo = scripted([res(500), res(500), res(200)]);
  await createHttpRequester(
    {
      type: 'HttpRequester',
      url: 'https://a.com/x',
      error_handler: { type: 'DefaultErrorHandler', backoff_strategies: [{ type: 'ExponentialBackoffStrategy', factor: 2 }] },
    },
    {},
    {},
    expo.env,
  ).send(input);
  assert.deepEqual(expo.sleeps, [5000, 9000]);
  const header = scripted([res(429, {}, { 'x-wait': '7.5 seconds' }), res(200)]);
  await createHttpRequester(
    {
      type: 'HttpRequester',
      url: 'https://a.com/x',
      error_handler: {
        type: 'DefaultErrorHandler',
        backoff_strategies: [{ type: 'WaitTimeFromHeader', header: 'X-Wait', regex: '[\\d.]+' }],
      },
    },
    {},
    {},
    header.env,
  ).send(input);
  assert.deepEqual(header.sleeps, [8500]);
  const tooLong = scripted([res(429, {}, { 'x-wait': '100' }), res(200)]);
  await assert.rejects(
    createHttpRequester(
      {
        type: 'HttpRequester',
        url: 'https://a.com/x',
        error_handler: {
          type: 'DefaultErrorHandler',
          backoff_strategies: [{ type: 'WaitTimeFromHeader', header: 'X-Wait', max_waiting_time_in_seconds: 60 }],
        },
      },
      {},
      {},
      tooLong.env,
    ).send(input),
    /max_waiting_time_in_seconds/,
  );
});

test('WaitUntilTimeFromHeader uses env.now', async () => {
  const s = scripted([res(429, {}, { 'x-reset': '1700000010' }), res(200)]);
  const env = { ...s.env, now: () => new Date(1_700_000_000_000) };
  await createHttpRequester(
    {
      type: 'HttpRequester',
      url: 'https://a.com/x',
      error_handler: { type: 'DefaultErrorHandler', backoff_strategies: [{ type: 'WaitUntilTimeFromHeader', header: 'X-Reset' }] },
    },
    {},
    {},
    env,
  ).send(input);
  assert.deepEqual(s.sleeps, [11000]);
});

test('exhausted attempts: "Exhausted available request attempts" / "API rate limit exceeded"; max_retries honoured', async () => {
  const s = scripted([res(500)]);
  await assert.rejects(
    createHttpRequester(
      { type: 'HttpRequester', url: 'https://a.com/x', error_handler: { type: 'DefaultErrorHandler', max_retries: 2 } },
      {},
      {},
      s.env,
    ).send(input),
    /Exhausted available request attempts \(3 attempts\)/,
  );
  assert.equal(s.calls(), 3);
  const rl = scripted([res(429)]);
  await assert.rejects(
    createHttpRequester({ type: 'HttpRequester', url: 'https://a.com/x' }, {}, { disableRetries: true }, rl.env).send(input),
    (e: Error & { failureType?: string; status?: number }) => {
      assert.match(e.message, /API rate limit exceeded/);
      assert.equal(e.failureType, 'transient_error');
      assert.equal(e.status, 429);
      return true;
    },
  );
  assert.equal(rl.calls(), 1);
});

test('FAIL carries the status, the failure type and the API message, never the query string', async () => {
  const s = scripted([res(401, { message: 'bad token' })]);
  await assert.rejects(
    createHttpRequester({ type: 'HttpRequester', url: 'https://a.com/x?api_key=SECRET' }, {}, {}, s.env).send(input),
    (e: Error & { failureType?: string; status?: number }) => {
      assert.equal(e.status, 401);
      assert.equal(e.failureType, 'config_error');
      assert.match(e.message, /bad token/);
      assert.doesNotMatch(e.message, /SECRET/);
      return true;
    },
  );
});

test('network failures are retried as transient; the last one surfaces', async () => {
  const s = scripted([Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })]);
  await assert.rejects(
    createHttpRequester(
      { type: 'HttpRequester', url: 'https://a.com/x', error_handler: { type: 'DefaultErrorHandler', max_retries: 1 } },
      {},
      {},
      s.env,
    ).send(input),
    /ECONNREFUSED/,
  );
  assert.equal(s.calls(), 2);
});

test('CompositeErrorHandler returns the first decisive resolution', () => {
  const h = createErrorHandler(
    {
      type: 'CompositeErrorHandler',
      error_handlers: [
        { type: 'DefaultErrorHandler', response_filters: [{ type: 'HttpResponseFilter', action: 'IGNORE', http_codes: [403] }] },
        { type: 'DefaultErrorHandler', max_retries: 9 },
      ],
    },
    {},
    {},
  );
  assert.equal(h.interpret(res(403), null).action, 'IGNORE');
  assert.equal(h.interpret(res(500), null).action, 'RETRY');
  assert.equal(h.maxRetries, 5);
});
