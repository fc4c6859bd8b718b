import { test } from 'node:test';
import assert from 'node:assert/strict';
import { provideHover } from '../../../server/src/features/hover';
import { docAt, fixtureIndex } from './fixtureCatalog';

const ctx = { index: fixtureIndex };
function hover(marked: string): string | null {
  const { doc, position } = docAt(marked);
  const h = provideHover(ctx, doc, { textDocument: { uri: doc.uri }, position });
  return h ? (h.contents as { value: string }).value : null;
}

const stream = 'streams:\n  - name: a\n    retriever:\n      requester:\n        ';

test('hover on a key: description, default, allowed values and Builder label', () => {
  const text = hover(stream + 'http_m|ethod: GET\n')!;
  assert.match(text, /^\*\*http_method\*\* — \*HTTP Method\* in the Connector Builder/);
  assert.match(text, /Default: `"GET"`\. Allowed values: `GET`, `POST`\./);
  assert.match(text, /Field of `HttpRequester`/);
});

test('hover on a key shows its example', () => {
  assert.match(hover(stream + 'url_b|ase: x\n')!, /```yaml\nurl_base: https:\/\/api\.example\.test\n```/);
});

test('hover on a type value and on the type key describes the component', () => {
  assert.match(
    hover(stream + 'authenticator:\n          type: Bearer|Authenticator\n')!,
    /^\*\*BearerAuthenticator\*\* — \*Bearer Token\*.*\n\nBearer token\.\n\nRequired fields: `api_token`\./,
  );
  assert.match(hover(stream + 'authenticator:\n          ty|pe: BearerAuthenticator\n')!, /^\*\*BearerAuthenticator\*\*/);
});

test('hover on a reference shows the target text', () => {
  const text = hover(
    'definitions:\n  req:\n    type: HttpRequester\n    url_base: x\nstreams:\n  - retriever:\n      requester: "#/defin|itions/req"\n',
  )!;
  assert.match(text, /Reference to `#\/definitions\/req` \(line 2\)/);
  assert.match(text, /```yaml\nreq:\n {2}type: HttpRequester\n {2}url_base: x\n```/);
  assert.match(hover('a:\n  b: "#/nowh|ere"\n')!, /no such target/);
});

test('no hover on unknown keys or in blank space', () => {
  assert.equal(hover(stream + 'nonsen|se: 1\n'), null);
  assert.equal(hover(stream + '|\n'), null);
});
