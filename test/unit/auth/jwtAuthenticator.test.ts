import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { compactVerify, importSPKI } from 'jose';
import { createAuthenticator, interpolate } from '../../../server/src/runtime';
import { frozenClock } from './helpers';

function decode(token: string) {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), payloadText: Buffer.from(p, 'base64url').toString() };
}

test('HS256 token of §12.6 at a frozen clock, bare in Authorization', async () => {
  const { env } = frozenClock(1700000000);
  const auth = createAuthenticator(
    { type: 'JwtAuthenticator', secret_key: 'test', algorithm: 'HS256', jwt_payload: { iss: 'my-issuer', aud: 'api' } },
    {},
    {},
    env,
  );
  const parts = await auth.authenticate();
  assert.equal(
    parts.request_headers.Authorization,
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJteS1pc3N1ZXIiLCJhdWQiOiJhcGkiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMTIwMCwibmJmIjoxNzAwMDAwMDAwfQ.J_d5nmIk9Y0zXxtOfLV5p-qPdffpb5G5izcbQ9FKgvA',
  );
});

test('claims, sorted header, token_duration, prefix, additional headers/payload and a custom request option', async () => {
  const { env, advance } = frozenClock(1700000000);
  const auth = createAuthenticator(
    {
      type: 'JwtAuthenticator',
      secret_key: "{{ config['secret'] }}",
      algorithm: 'HS512',
      token_duration: 60,
      header_prefix: 'Bearer',
      jwt_headers: { kid: 'key-1', cty: 'JWT' },
      additional_jwt_headers: { zz: 'last' },
      jwt_payload: { iss: 'me', sub: "{{ config['user'] }}", aud: 'api' },
      additional_jwt_payload: { scope: 'read' },
      request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'jwt' },
    },
    { secret: 's3', user: 'alice' },
    {},
    env,
  );
  const first = (await auth.authenticate()).request_parameters.jwt as string;
  assert.match(first, /^Bearer /);
  const { header, payloadText } = decode(first.slice('Bearer '.length));
  assert.deepEqual(Object.keys(header), ['alg', 'cty', 'kid', 'typ', 'zz']);
  assert.equal(header.typ, 'JWT');
  assert.equal(payloadText, '{"scope":"read","iss":"me","sub":"alice","aud":"api","iat":1700000000,"exp":1700000060,"nbf":1700000000}');
  advance(30);
  const second = (await auth.authenticate()).request_parameters.jwt as string;
  assert.equal(JSON.parse(decode(second.slice(7)).payloadText).iat, 1700000030, 'a new token per request');
});

test('base64_encode_secret_key signs with the base64 text of the secret', async () => {
  const { env } = frozenClock(1700000000);
  const plain = await createAuthenticator(
    { type: 'JwtAuthenticator', secret_key: Buffer.from('test').toString('base64'), algorithm: 'HS256' },
    {},
    {},
    env,
  ).authenticate();
  const encoded = await createAuthenticator(
    { type: 'JwtAuthenticator', secret_key: 'test', algorithm: 'HS256', base64_encode_secret_key: true },
    {},
    {},
    env,
  ).authenticate();
  assert.equal(encoded.request_headers.Authorization, plain.request_headers.Authorization);
});

test('RS256, PS384, ES256 and EdDSA tokens verify with the public key', async () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = generateKeyPairSync('ed25519');
  const cases: [string, typeof rsa][] = [
    ['RS256', rsa],
    ['PS384', rsa],
    ['ES256', ec],
    ['EdDSA', ed],
  ];
  for (const [alg, pair] of cases) {
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const parts = await createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: '{{ config.key }}', algorithm: alg },
      { key: pem },
    ).authenticate();
    const publicKey = await importSPKI(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), alg);
    const { protectedHeader } = await compactVerify(parts.request_headers.Authorization as string, publicKey);
    assert.equal(protectedHeader.alg, alg);
  }
});

test('ES256K and Ed448 (signed without jose) verify with node:crypto', async () => {
  for (const [alg, pair, verifyArgs] of [
    ['ES256K', generateKeyPairSync('ec', { namedCurve: 'secp256k1' }), 'sha256'],
    ['EdDSA', generateKeyPairSync('ed448'), null],
  ] as const) {
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const token = (await createAuthenticator({ type: 'JwtAuthenticator', secret_key: pem, algorithm: alg }, {}).authenticate())
      .request_headers.Authorization as string;
    const [h, p, sig] = token.split('.');
    assert.equal(decode(token).header.alg, alg);
    const ok = verify(
      verifyArgs,
      Buffer.from(`${h}.${p}`),
      { key: pair.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig, 'base64url'),
    );
    assert.ok(ok, `${alg} signature verifies`);
  }
});

test('an empty header name sends no header (§6.1)', async () => {
  const parts = await createAuthenticator(
    {
      type: 'JwtAuthenticator',
      secret_key: 'k',
      algorithm: 'HS256',
      request_option: { type: 'RequestOption', inject_into: 'header', field_name: '{{ config.h }}' },
    },
    {},
  ).authenticate();
  assert.deepEqual(parts.request_headers, {});
});

test('a passphrase-protected key is decrypted; a wrong passphrase is a clear error without the key', async () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
  const component = { type: 'JwtAuthenticator', secret_key: '{{ config.key }}', passphrase: '{{ config.pass }}', algorithm: 'RS256' };
  const ok = await createAuthenticator(component, { key: pem, pass: 'pw' }).authenticate();
  assert.equal((ok.request_headers.Authorization as string).split('.').length, 3);
  await assert.rejects(
    createAuthenticator(component, { key: pem, pass: 'wrong' }).authenticate(),
    (err: Error & { failureType: string }) => {
      assert.match(err.message, /^Failed to sign token/);
      assert.ok(!err.message.includes('PRIVATE KEY') && !err.message.includes('wrong'));
      return err.failureType === 'config_error';
    },
  );
});

test('json_loads is available in JWT templates', async (t) => {
  // The placeholder evaluator on main cannot call functions; this runs once the Jinja evaluator (issue #4) is merged.
  if (interpolate("{{ f('x') }}", { f: (s: string) => s + 'y' }, 'string') !== 'xy') {
    t.skip('template function calls are not supported by the current evaluator');
    return;
  }
  const sa = JSON.stringify({ secret: 'test', issuer: 'svc' });
  const parts = await createAuthenticator(
    {
      type: 'JwtAuthenticator',
      secret_key: "{{ json_loads(config['sa'])['secret'] }}",
      algorithm: 'HS256',
      jwt_payload: { iss: "{{ json_loads(config['sa'])['issuer'] }}" },
    },
    { sa },
  ).authenticate();
  assert.equal(JSON.parse(decode(parts.request_headers.Authorization as string).payloadText).iss, 'svc');
});

test('a malformed service-account JSON gives an error that does not quote it', async () => {
  const sa = '{"private_key": "-----BEGIN SECRETPART';
  await assert.rejects(
    createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: "{{ json_loads(config['sa'])['private_key'] }}", algorithm: 'RS256' },
      { sa },
    ).authenticate(),
    (err: Error & { failureType: string }) => {
      assert.match(err.message, /secret_key could not be rendered/);
      assert.ok(!err.message.includes('SECRETPART'));
      return err.failureType === 'config_error';
    },
  );
});

test('reserved keys and unknown algorithms are config errors', async () => {
  assert.throws(() => createAuthenticator({ type: 'JwtAuthenticator', secret_key: 'k', algorithm: 'none' }, {}), {
    failureType: 'config_error',
    message: /algorithm must be one of/,
  });
  assert.throws(() => createAuthenticator({ type: 'JwtAuthenticator', algorithm: 'HS256' }, {}), {
    failureType: 'config_error',
    message: /secret_key/,
  });
  await assert.rejects(
    createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: 'k', algorithm: 'HS256', additional_jwt_headers: { kid: 'x' } },
      {},
    ).authenticate(),
    { failureType: 'config_error', message: /must not contain kid/ },
  );
  await assert.rejects(
    createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: 'k', algorithm: 'HS256', additional_jwt_payload: { exp: 1 } },
      {},
    ).authenticate(),
    { failureType: 'config_error', message: /must not contain exp/ },
  );
});
