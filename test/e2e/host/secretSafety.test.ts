// Runs after the read suites: no testing value nor any token the demo issued may appear, in any
// encoding, in the output channel or in what the results views were sent. (The runner scans the disk after the window closes.)
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { activateExtension } from './helpers';
import { observedSecrets } from './demoApi';
import { findSecretsIn } from '../secretEncodings.mjs';

type Api = { outputText(): string; resultsTranscript(): string };

describe('secret safety', () => {
  it('no secret appears in the output channel or the results views', async () => {
    const api = await activateExtension<Api>();
    const secrets = await observedSecrets();
    assert.ok(secrets.length >= 5, 'the suites used secrets and obtained tokens');
    const output = api.outputText();
    const results = api.resultsTranscript();
    assert.ok(output.includes('test read of stream'), 'the output channel logged the reads');
    assert.ok(results.includes('"type":"result"'), 'results views received results');
    // Every encoding of every secret (raw, JSON, URL, form, base64), not just the value as typed.
    const leaks = [
      ...findSecretsIn(output, secrets).map((h) => `output channel has ${h}`),
      ...findSecretsIn(results, secrets).map((h) => `results view has ${h}`),
    ];
    assert.deepEqual(leaks, []);
  });
});
