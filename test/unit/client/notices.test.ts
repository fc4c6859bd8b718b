// What the notifications of Run stream and Import config.json say (issue 19): three short buttons at most
// (a VS Code notification cuts longer rows), no "delete config.json" when other manifests share it, and
// counts in the right number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COPY_VALUES, IMPORT_CONFIG, SET_VALUES, noValuesPrompt } from '../../../client/src/commands/noValuesPrompt';
import { importNotice, looksLikeManifest } from '../../../client/src/commands/importNotice';
import { plural } from '../../../client/src/plural';

const DEMO = join(__dirname, '..', '..', '..', 'demo', 'workspace');

test('no testing values: at most three buttons, each short enough for a notification, in every situation', () => {
  for (const hasConfig of [false, true]) {
    for (const sources of [[], ['api-key-auth.yaml'], ['a.yaml', 'b.yaml']]) {
      const { choices, message } = noValuesPrompt('demo/offset-increment.yaml', hasConfig, sources, 'Run Anyway');
      assert.ok(choices.length <= 3, `${choices.length} buttons: ${choices.join(' | ')}`);
      // Measured on the e2e screenshots: a notification row holds three buttons of up to 18 characters.
      assert.ok(
        choices.every((c) => c.length <= 18),
        choices.join(' | '),
      );
      assert.ok(choices.includes(SET_VALUES) || (hasConfig && sources.length > 0));
      assert.equal(choices.includes(IMPORT_CONFIG), hasConfig);
      assert.equal(choices.includes(COPY_VALUES), sources.length > 0);
      // What a button cannot say is in the message: whose values Copy takes.
      if (sources.length === 1) assert.match(message, /copies the values of api-key-auth\.yaml/);
    }
  }
  assert.deepEqual(noValuesPrompt('m.yaml', false, [], 'Run Anyway').choices, [SET_VALUES, 'Run Anyway']);
});

test('import: "delete config.json" only when no other manifest beside it could import it', () => {
  const others = readdirSync(DEMO)
    .filter((n) => n.endsWith('.yaml') && n !== 'offset-increment.yaml')
    .filter((n) => looksLikeManifest(readFileSync(join(DEMO, n), 'utf8'))).length;
  assert.ok(others >= 10, `the demo folder has ${others} other manifests`);
  const shared = importNotice('demo/offset-increment.yaml', 'config.json', others);
  assert.doesNotMatch(shared, /delete/);
  assert.match(shared, new RegExp(`Keep config\\.json: ${others} other manifests in its folder can import it too`));
  assert.match(importNotice('m.yaml', 'config.json', 1), /another manifest in its folder/);
  assert.match(importNotice('m.yaml', 'config.json', 0), /You may delete config\.json now\./);
  assert.equal(looksLikeManifest('name: x\nitems: []\n'), false);
});

test('counts read "1 record", "2 records", never "record(s)"', () => {
  assert.equal(plural(1, 'record'), '1 record');
  assert.equal(plural(0, 'page'), '0 pages');
  assert.equal(plural(3, 'dynamic stream'), '3 dynamic streams');
  // No view or message of the client still writes the "(s)" form.
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && /\b(page|record|field|place|problem|stream|slice)\(s\)/.test(readFileSync(p, 'utf8')))
        offenders.push(p);
    }
  };
  walk(join(__dirname, '..', '..', '..', 'client', 'src'));
  assert.deepEqual(offenders, []);
});
