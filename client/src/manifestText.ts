// Recognises connector-manifest text by its top-level keys with a line scan (no YAML parsing, no
// vscode import, so unit tests can load it).

const DECLARATIVE_TYPE = /^type:[ \t]*['"]?DeclarativeSource['"]?[ \t]*(#.*)?$/m;
const TOP_LEVEL_VERSION = /^version:/m;
const TOP_LEVEL_STREAMS = /^streams:/m;

/** True when the text looks like a manifest: `type: DeclarativeSource`, or `version` and `streams` at the top level. */
export function looksLikeManifest(text: string): boolean {
  return DECLARATIVE_TYPE.test(text) || (TOP_LEVEL_VERSION.test(text) && TOP_LEVEL_STREAMS.test(text));
}

/**
 * True when the text holds nothing but blank lines, comments and at most one word being typed: a
 * YAML file that may become a manifest, where completion offers the manifest skeleton.
 */
export function isBlankStart(text: string): boolean {
  if (text.length > 2000) return false;
  const content = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  return content.length === 0 || (content.length === 1 && /^[A-Za-z_]\w*$/.test(content[0]));
}
