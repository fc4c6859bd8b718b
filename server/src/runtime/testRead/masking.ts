// Secret masking of test-read output (§11): values of config fields marked airbyte_secret in the spec
// and credentials used or obtained while reading are replaced by `****` wherever they appear, in every
// encoding a request, a response or a template filter can give them (shared/secretPatterns.ts).
import { secretValues } from '../shared/secretFields';
import { credentialConfigValues } from '../shared/credentialFields';
import { compileSecrets, maskSecretsIn, MIN_SECRET_LENGTH, type CompiledSecrets } from '../shared/secretPatterns';
import { setOwn } from '../shared/safeObject';

/** Collects secret values and masks them in text and in JSON-like values. */
export class SecretMasker {
  private readonly secrets: string[] = [];
  private compiled: CompiledSecrets | null = null;

  /** Adds a value to mask; empty and very short values are ignored (they would mask unrelated text). */
  add(value: unknown): void {
    if (value === null || value === undefined) return;
    const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
    if (text.length < MIN_SECRET_LENGTH || this.secrets.includes(text)) return;
    this.secrets.push(text);
    this.compiled = null;
  }

  /** Adds every config value whose spec property has airbyte_secret: true (inside arrays and oneOf/anyOf/allOf too). */
  addFromSpec(spec: unknown, config: unknown): void {
    const connection = (spec as Record<string, unknown> | undefined)?.connection_specification;
    for (const v of secretValues(connection, config)) this.add(v);
  }

  /**
   * Adds every config value the resolved manifest treats as secret: marked airbyte_secret in its spec,
   * or used as a credential by an authenticator or a requester (shared/credentialFields.ts).
   */
  addFromManifest(manifest: Record<string, unknown>, config: unknown): void {
    this.addFromSpec(manifest.spec, config);
    for (const v of credentialConfigValues(manifest, config)) this.add(v);
  }

  /** Replaces every secret, in every encoding, in a string. */
  maskText(text: string): string {
    if (this.secrets.length === 0) return text;
    this.compiled ??= compileSecrets(this.secrets);
    return maskSecretsIn(text, this.compiled);
  }

  /** A copy of a JSON-like value with every string masked (the value itself when there is nothing to mask). */
  maskValue<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    if (typeof value === 'string') return this.maskText(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) setOwn(out, this.maskText(k), this.maskValue(v));
      return out as T;
    }
    return value;
  }
}
