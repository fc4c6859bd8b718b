// Where cassettes and regression expectations live by convention (docs/cassettes.md): the CLI's
// `connector-manifest test --cassettes DIR` looks for DIR/<stream>.cassette.yaml and
// DIR/<stream>.expected.json, and the extension saves and finds them in <manifest dir>/cassettes/.
// Pure (imports nothing): the client uses it too.

/** The folder beside the manifest where the extension saves and looks for cassettes. */
export const CASSETTE_DIR = 'cassettes';

/** A stream name as a file name: characters other than letters, digits, `_`, `.` and `-` become `_`. */
export function safeStreamFileName(stream: string): string {
  return stream.replace(/[^\w.-]/g, '_');
}

/** The file names (no folder) of a stream's cassette and expectation. */
export function cassetteFileNames(stream: string): { cassette: string; expectation: string } {
  const safe = safeStreamFileName(stream);
  return { cassette: `${safe}.cassette.yaml`, expectation: `${safe}.expected.json` };
}
