// The masker of a recorded or replayed read: the runtime's SecretMasker, which also learns the forms a
// secret takes on the wire (URL-encoded in a query or form body, base64 in a header), plus the rule
// that credentials headers are never written to a cassette whatever their value.
import { SecretMasker } from '../testRead/masking';
import { setOwn } from '../shared/safeObject';

export const MASK = '****';

/** Request headers whose value is a credential as a whole (Basic, Bearer, JWT, cookies). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** Config keys that hold credentials by their name. */
const CREDENTIAL_KEY = /pass(word)?|secret|token|api[-_]?key|private[-_]?key|credential|auth|session|cookie|jwt|signature/i;

export class CassetteMasker extends SecretMasker {
  /** Adds a secret and its URL-encoded and base64 forms (SecretMasker.add ignores duplicates). */
  override add(value: unknown): void {
    super.add(value);
    if (typeof value !== 'string' || value.length < 3) return;
    super.add(encodeURIComponent(value));
    super.add(new URLSearchParams({ v: value }).toString().slice(2));
    // Python's quote / quote_plus (the CDK's form and query encoding) also escape ! ' ( ) *.
    const strict = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    super.add(strict);
    super.add(strict.replace(/%20/g, '+'));
    super.add(Buffer.from(value, 'utf8').toString('base64'));
  }

  /**
   * Adds every config value whose key names a credential (password, secret, token, key, ...), marked
   * airbyte_secret in the spec or not: a cassette is shared, and a spec may forget the mark.
   */
  addCredentialsOf(config: unknown): void {
    const walk = (node: unknown, key: string | null) => {
      if (Array.isArray(node)) for (const item of node) walk(item, key);
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k);
      else if (key !== null && CREDENTIAL_KEY.test(key) && (typeof node === 'string' || typeof node === 'number')) this.add(String(node));
    };
    walk(config, null);
  }

  /** Request headers as written to a cassette: credential headers keep their scheme word only. */
  maskRequestHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (CREDENTIAL_HEADERS.has(k.toLowerCase())) {
        const scheme = /^(Basic|Bearer|Token|JWT|Digest)\s/i.exec(v)?.[1];
        setOwn(out, k, scheme ? `${scheme} ${MASK}` : MASK);
      } else setOwn(out, k, this.maskText(v));
    }
    return out;
  }
}

/**
 * A read's own masker that teaches a cassette masker every secret it learns (spec secrets, tokens
 * obtained during the read): the StreamRead is then masked exactly as a read without a recorder masks
 * it, while the cassette gets those secrets plus its own stricter rules.
 */
export class TeachingMasker extends SecretMasker {
  constructor(private readonly cassette: CassetteMasker) {
    super();
  }

  override add(value: unknown): void {
    super.add(value);
    this.cassette.add(value);
  }
}
