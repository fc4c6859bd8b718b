import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLoopbackReceiver } from '../../../client/src/oauthLoopback';

test('a redirect with the expected state yields the code and a friendly page', async () => {
  const r = await startLoopbackReceiver(() => 'st-123');
  assert.match(r.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const res = await fetch(`${r.redirectUri}?code=abc&state=st-123`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /received the authorization/);
  assert.equal(await r.code, 'abc');
});

test('requests without the expected state are refused and ignored: the listener keeps waiting for the real redirect', async () => {
  const r = await startLoopbackReceiver(() => 'expected');
  let settled = false;
  r.code.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (const query of ['code=abc&state=forged', 'code=abc', 'error=access_denied', 'error=access_denied&state=forged', '']) {
    const res = await fetch(`${r.redirectUri}?${query}`);
    assert.equal(res.status, 400, query);
    assert.match(await res.text(), /does not match/);
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'a forged request ended the flow');
  const real = await fetch(`${r.redirectUri}?code=the-code&state=expected`);
  assert.equal(real.status, 200);
  assert.equal(await r.code, 'the-code');
});

test('when only forged requests arrive, the flow ends at its time-out', async () => {
  const r = await startLoopbackReceiver(() => 'expected', { timeoutMs: 300 });
  assert.equal((await fetch(`${r.redirectUri}?code=abc&state=forged`)).status, 400);
  await assert.rejects(r.code, /No OAuth redirect arrived in time/);
});

test('a provider error and an early close reject the code', async () => {
  const r = await startLoopbackReceiver(() => 's');
  await fetch(`${r.redirectUri}?error=access_denied&state=s`);
  await assert.rejects(r.code, /refused the authorization \(access_denied\)/);
  const r2 = await startLoopbackReceiver(() => 's');
  r2.close();
  await assert.rejects(r2.code, /cancelled/);
});
