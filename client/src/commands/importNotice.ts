// What "Import config.json" says once the values are stored. A config.json that other manifests of its
// folder can import too (the demo workspace's is shared by every demo manifest) is not offered for
// deletion. No vscode import (unit-tested).

/** The confirmation; `otherManifests` counts the other connector manifests beside the config file. */
export function importNotice(manifest: string, configFile: string, otherManifests: number): string {
  const stored = `Imported testing values for ${manifest} into secret storage.`;
  if (otherManifests > 0) {
    return `${stored} Keep ${configFile}: ${otherManifests === 1 ? 'another manifest' : `${otherManifests} other manifests`} in its folder can import it too.`;
  }
  return `${stored} You may delete ${configFile} now.`;
}

/** Whether a YAML text is a connector manifest (its top-level type, or the usual top-level keys). */
export function looksLikeManifest(text: string): boolean {
  return /^type:\s*["']?DeclarativeSource\b/m.test(text) || (/^streams:/m.test(text) && /^version:/m.test(text));
}
