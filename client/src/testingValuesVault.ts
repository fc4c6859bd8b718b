// Where testing values live in SecretStorage, without VS Code (so it is unit-tested alone): one entry
// per manifest, keyed by the manifest's absolute URI, so two repositories that both have a
// `manifest.yaml` at their root never share credentials. Values stored for another manifest, or under
// the old workspace-relative key of earlier versions, are never used silently: they are only offered
// (`candidates`) and copied when the user picks them (`copyFrom`).

export type ConnectorConfig = Record<string, unknown>;

/** The part of vscode.SecretStorage the vault uses. */
export type SecretStore = {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
};

/** Where another set of testing values can be copied from. */
export type ValuesSource =
  | { kind: 'manifest'; uri: string }
  /** The old key of versions that keyed by workspace-relative path: it may belong to any project with that path. */
  | { kind: 'legacy'; relativePath: string };

const KEY_PREFIX = 'airbyte.testingValues.byUri:';
const LEGACY_PREFIX = 'airbyte.testingValues:';
/** The URIs that have values (no values in it), so other manifests can offer them. */
const INDEX_KEY = 'airbyte.testingValues.index';

/** The SecretStorage key of a manifest's testing values: its absolute URI. */
export function testingValuesKey(manifestUri: string): string {
  return KEY_PREFIX + manifestUri;
}

/** The key earlier versions used: the workspace-relative path (shared by every repository with that path). */
export function legacyTestingValuesKey(relativePath: string): string {
  return LEGACY_PREFIX + relativePath;
}

function parseConfig(raw: string | undefined): ConnectorConfig | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ConnectorConfig) : undefined;
  } catch {
    return undefined;
  }
}

export class TestingValuesVault {
  constructor(private readonly secrets: SecretStore) {}

  /** The values stored for exactly this manifest; never another manifest's, never the legacy key's. */
  async get(manifestUri: string): Promise<ConnectorConfig | undefined> {
    return parseConfig(await this.secrets.get(testingValuesKey(manifestUri)));
  }

  async set(manifestUri: string, config: ConnectorConfig): Promise<void> {
    await this.secrets.store(testingValuesKey(manifestUri), JSON.stringify(config));
    await this.updateIndex((uris) => (uris.includes(manifestUri) ? uris : [...uris, manifestUri]));
  }

  async clear(manifestUri: string): Promise<void> {
    await this.secrets.delete(testingValuesKey(manifestUri));
    await this.updateIndex((uris) => uris.filter((u) => u !== manifestUri));
  }

  /**
   * Values the user may choose to copy to `manifestUri`: other manifests' values, and the legacy
   * workspace-relative key when it still holds values. Nothing here is applied without the user.
   */
  async candidates(manifestUri: string, relativePath: string | undefined): Promise<ValuesSource[]> {
    const out: ValuesSource[] = [];
    for (const uri of await this.index()) {
      if (uri !== manifestUri && (await this.get(uri))) out.push({ kind: 'manifest', uri });
    }
    if (relativePath !== undefined && parseConfig(await this.secrets.get(legacyTestingValuesKey(relativePath))))
      out.push({ kind: 'legacy', relativePath });
    return out;
  }

  /** Copies the values of `source` to `manifestUri` (an explicit choice of the user); false when the source has none. */
  async copyFrom(source: ValuesSource, manifestUri: string): Promise<boolean> {
    const values =
      source.kind === 'manifest'
        ? await this.get(source.uri)
        : parseConfig(await this.secrets.get(legacyTestingValuesKey(source.relativePath)));
    if (!values) return false;
    await this.set(manifestUri, values);
    return true;
  }

  private async index(): Promise<string[]> {
    try {
      const list = JSON.parse((await this.secrets.get(INDEX_KEY)) ?? '[]');
      return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string') : [];
    } catch {
      return [];
    }
  }

  private async updateIndex(change: (uris: string[]) => string[]): Promise<void> {
    await this.secrets.store(INDEX_KEY, JSON.stringify(change(await this.index())));
  }
}
