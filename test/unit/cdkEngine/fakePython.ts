// A stand-in interpreter for the CDK engine's process tests that need no Python: a shell script that
// answers the engine's probe as an interpreter with airbyte-cdk would, and for a read records what it
// was given (arguments, environment, the config file's mode and folder) and prints Airbyte messages.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the script into `dir` and returns its path. `readBody` is the shell run for a read (after the recording). */
export function writeFakePythonPrinting(dir: string, stdout: string, cdkVersion?: string): string {
  writeFileSync(join(dir, 'answer.txt'), stdout);
  return writeFakePython(dir, `cat "${join(dir, 'answer.txt')}"`, cdkVersion);
}

/** A fake interpreter whose read runs `readBody` (shell). */
export function writeFakePython(dir: string, readBody: string, cdkVersion = '6.50.0'): string {
  const path = join(dir, 'fake-python');
  const probe = JSON.stringify({ python: '3.11.9', executable: path, cdk: cdkVersion, ok: true });
  writeFileSync(
    path,
    `#!/bin/sh
case "$*" in
  *importlib.metadata*) echo '${probe}'; exit 0 ;;
esac
config=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--config" ]; then config="$a"; fi
  prev="$a"
done
{
  printf 'ARGS:'
  for a in "$@"; do printf ' %s' "$(printf '%s' "$a" | tr '\n' ';')"; done
  echo
  env | sed 's/^/ENV: /'
  echo "MODE: $(stat -c %a "$config")"
  echo "DIRMODE: $(stat -c %a "$(dirname "$config")")"
  echo "CONFIGDIR: $(dirname "$config")"
} > "${dir}/seen.txt"
cp "$config" "${dir}/config-copy.json"
${readBody}
`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** A StreamRead with one page of `records`, as a RECORD message line of the connector-builder answer. */
export function answerLine(stream: string, records: object[], extra: object = {}): string {
  const data = {
    logs: [],
    slices: [
      {
        pages: [
          {
            records,
            request: { url: 'http://127.0.0.1:1/items', headers: {}, http_method: 'GET', body: null },
            response: { status: 200, body: '{}', headers: {} },
          },
        ],
        slice_descriptor: '{}',
        state: [],
        auxiliary_requests: [],
      },
    ],
    test_read_limit_reached: false,
    auxiliary_requests: [],
    inferred_schema: null,
    inferred_datetime_formats: {},
    latest_config_update: null,
    ...extra,
  };
  // Key order and spacing are not the CDK's on purpose: the engine reads messages, not a printing style.
  return JSON.stringify({ record: { emitted_at: 1, data, stream }, type: 'RECORD' }, null, 0);
}
