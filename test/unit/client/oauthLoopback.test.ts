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

test('a redirect with another state is refused and the code is discarded', async () => {
  const r = await startLoopbackReceiver(() => 'expected');
  const res = await fetch(`${r.redirectUri}?code=abc&state=forged`);
  assert.equal(res.status, 400);
  await assert.rejects(r.code, /state that does not match/);
});

test('a provider error and an early close reject the code', async () => {
  const r = await startLoopbackReceiver(() => 's');
  await fetch(`${r.redirectUri}?error=access_denied&state=s`);
  await assert.rejects(r.code, /refused the authorization \(access_denied\)/);
  const r2 = await startLoopbackReceiver(() => 's');
  r2.close();
  await assert.rejects(r2.code, /cancelled/);
});
