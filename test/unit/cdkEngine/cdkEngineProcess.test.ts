// The CDK engine's process handling, with a stand-in interpreter (no Python needed): the config goes
// through a private 0600 file that is removed afterwards (never arguments or environment), the answer
// is read as Airbyte messages, control messages write rotated tokens back, cancellation ends the whole
// process group, and a missing interpreter or components.py is explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cdkTestRead, type CdkEngineError } from '../../../server/src/cdkEngine/cdkTestRead';
import { probeCdkEngine } from '../../../server/src/cdkEngine/pythonProbe';
import { answerLine, writeFakePython, writeFakePythonPrinting } from './fakePython';

const ROOT = join(__dirname, '../../..');
const DEMO = join(ROOT, 'demo/workspace/custom-components');
const SECRET = 'sk-live-very-secret-value-42';

function workspace(): { dir: string; manifestPath: string; manifest: Record<string, unknown> } {
  const dir = mkdtempSync(join(tmpdir(), 'cdk-process-'));
  const manifestPath = join(dir, 'manifest.yaml');
  copyFileSync(join(DEMO, 'manifest.yaml'), manifestPath);
  copyFileSync(join(DEMO, 'components.py'), join(dir, 'components.py'));
  const manifest = {
    version: '6.0.0',
    type: 'DeclarativeSource',
    spec: { type: 'Spec', connection_specification: { type: 'object', properties: { api_key: { type: 'string', airbyte_secret: true } } } },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'items',
        retriever: {
          type: 'SimpleRetriever',
          record_selector: {
            type: 'RecordSelector',
            extractor: { type: 'CustomRecordExtractor', class_name: 'source_declarative_manifest.components.X' },
          },
        },
      },
    ],
  };
  return { dir, manifestPath, manifest };
}

test('the config reaches the CDK only as a 0600 file in a private folder, removed afterwards; components.py is injected with its checksum', async () => {
  const { dir, manifestPath, manifest } = workspace();
  try {
    const python = writeFakePythonPrinting(dir, `${answerLine('items', [{ id: 1 }])}\n`);
    const read = await cdkTestRead(manifest, { api_key: SECRET }, 'items', { maxRecords: 7 }, { python, manifestPath });
    assert.deepEqual(read.slices[0].pages[0].records, [{ id: 1 }]);
    const seen = readFileSync(join(dir, 'seen.txt'), 'utf8');
    const args = seen.split('\n').find((l) => l.startsWith('ARGS: '))!;
    assert.match(args, / read --config \S+config\.json --catalog \S+catalog\.json --state \S+state\.json$/);
    assert.ok(
      !seen
        .split('\n')
        .filter((l) => l.startsWith('ARGS: ') || l.startsWith('ENV: '))
        .some((l) => l.includes(SECRET)),
      'the secret is in no argument and no environment variable',
    );
    assert.match(seen, /^ENV: AIRBYTE_ENABLE_UNSAFE_CODE=true$/m, "custom code is allowed for the author's own components");
    assert.match(seen, /^MODE: 600$/m);
    assert.match(seen, /^DIRMODE: 700$/m);
    const config = JSON.parse(readFileSync(join(dir, 'config-copy.json'), 'utf8'));
    assert.equal(config.api_key, SECRET);
    assert.equal(config.__command, 'test_read');
    assert.deepEqual(config.__test_read_config, { max_records: 7, max_pages_per_slice: 5, max_slices: 5 });
    assert.deepEqual(config.__injected_declarative_manifest, manifest);
    assert.equal(config.__injected_components_py, readFileSync(join(dir, 'components.py'), 'utf8'));
    assert.match(config.__injected_components_py_checksums.md5, /^[0-9a-f]{32}$/);
    const configDir = seen
      .split('\n')
      .find((l) => l.startsWith('CONFIGDIR: '))!
      .slice(11);
    assert.equal(existsSync(configDir), false, 'the folder with the config is removed after the read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CONNECTOR_CONFIG control messages write the rotated token back; the StreamRead shows it masked', async () => {
  const { dir, manifestPath, manifest } = workspace();
  try {
    const rotated = 'rotated-refresh-token-0123456789';
    const control = JSON.stringify({
      type: 'CONTROL',
      control: {
        type: 'CONNECTOR_CONFIG',
        emitted_at: 2,
        connector_config: { config: { api_key: rotated, __injected_declarative_manifest: {} } },
      },
    });
    const answer = answerLine('items', [{ id: 1, echoed: rotated }], { latest_config_update: { api_key: rotated } });
    const python = writeFakePythonPrinting(dir, `not a message: a component printed this\n${control}\n${answer}\n`);
    const updates: Record<string, unknown>[] = [];
    const read = await cdkTestRead(
      manifest,
      { api_key: SECRET },
      'items',
      {},
      { python, manifestPath, onConfigUpdate: (c) => updates.push(c) },
    );
    assert.deepEqual(updates, [{ api_key: rotated }], 'reported once, without the reserved keys');
    assert.deepEqual(read.slices[0].pages[0].records, [{ id: 1, echoed: '****' }]);
    assert.deepEqual(read.latest_config_update, { api_key: '****' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cancelling a CDK read ends its whole process group', async () => {
  const { dir, manifestPath, manifest } = workspace();
  try {
    // The "connector" starts a grandchild and waits: both must be gone after the abort.
    const python = writeFakePython(dir, `sleep 300 &\necho $! > "${dir}/grandchild.pid"\nwait`);
    const controller = new AbortController();
    const reading = cdkTestRead(manifest, {}, 'items', {}, { python, manifestPath, signal: controller.signal });
    for (let i = 0; i < 200 && !existsSync(join(dir, 'grandchild.pid')); i++) await new Promise((r) => setTimeout(r, 25));
    const grandchild = Number(readFileSync(join(dir, 'grandchild.pid'), 'utf8'));
    controller.abort();
    await assert.rejects(reading, { name: 'AbortError' });
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      try {
        process.kill(grandchild, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'the grandchild process was killed with the group');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a TRACE error answer fails the read with its message; frames of components.py point at the file', async () => {
  const { dir, manifestPath, manifest } = workspace();
  try {
    const trace = JSON.stringify({
      type: 'TRACE',
      trace: {
        type: 'ERROR',
        emitted_at: 1,
        error: {
          message: "Error handling request: name 'undefined_name' is not defined",
          failure_type: 'system_error',
          stack_trace:
            'Traceback (most recent call last):\n  File "/cdk/custom_code_compiler.py", line 149, in register\n    exec(components_py_text, components_module.__dict__)\n  File "<string>", line 12, in <module>\nNameError: name \'undefined_name\' is not defined\n',
        },
      },
    });
    const python = writeFakePythonPrinting(dir, `${trace}\n`);
    await assert.rejects(cdkTestRead(manifest, {}, 'items', {}, { python, manifestPath }), (e: CdkEngineError) => {
      assert.equal(e.kind, 'components-failed');
      assert.deepEqual(e.links, [{ path: join(dir, 'components.py'), line: 12 }]);
      assert.match(
        e.message,
        /components\.py failed to load or run \(.*components\.py:12\): Error handling request: name 'undefined_name' is not defined/,
      );
      assert.match(e.stacktrace ?? '', new RegExp(`File "${join(dir, 'components.py').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}", line 12`));
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a manifest with components but no components.py beside it says where the file is expected', async () => {
  const { dir, manifestPath, manifest } = workspace();
  try {
    rmSync(join(dir, 'components.py'));
    const python = writeFakePython(dir, 'exit 0');
    await assert.rejects(cdkTestRead(manifest, {}, 'items', {}, { python, manifestPath }), (e: CdkEngineError) => {
      assert.equal(e.kind, 'components-missing');
      assert.equal(
        e.message,
        `The manifest uses custom components (source_declarative_manifest.components.X) but there is no components.py at ${join(dir, 'components.py')}. Put the connector's components.py beside the manifest.`,
      );
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interpreter that does not exist: the message says to install Python or set airbyte.cdk.python', async () => {
  const status = await probeCdkEngine('/nonexistent/bin/python3');
  assert.deepEqual(status, {
    ok: false,
    python: '/nonexistent/bin/python3',
    problem: 'no-python',
    installCommand: null,
    message:
      'Python /nonexistent/bin/python3 was not found. Install Python 3.10 or later, or name the interpreter where airbyte-cdk is installed ("airbyte.cdk.python" in VS Code, --python on the command line).',
  });
});

test("a CDK older than the manifest's version is refused with the upgrade command for that interpreter", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdk-old-'));
  try {
    const python = writeFakePython(dir, 'exit 0', '0.58.2');
    const status = await probeCdkEngine(python, '6.36.0');
    assert.deepEqual(status, {
      ok: false,
      python,
      problem: 'old-cdk',
      cdkVersion: '0.58.2',
      installCommand: `${python} -m pip install --upgrade "airbyte-cdk>=6.36.0"`,
      message: `airbyte-cdk 0.58.2 (${python}) is older than the manifest's version 6.36.0. Upgrade it with: ${python} -m pip install --upgrade "airbyte-cdk>=6.36.0"`,
    });
    writeFileSync(join(dir, 'unused'), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
