// CDK version strings as manifests declare them (`version: 6.44.0`): parsing and ordering, so
// removed components can be accepted for manifests written for an older CDK.

/** A parsed `major.minor.patch` version; missing parts are 0. */
export type CdkVersion = readonly [number, number, number];

/** Parses `6.44.0`, `"0.29"`, `v5.1.2-rc1`; undefined when the text has no leading number. */
export function parseVersion(text: unknown): CdkVersion | undefined {
  if (typeof text === 'number') text = String(text);
  if (typeof text !== 'string') return undefined;
  const m = /^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: CdkVersion, b: CdkVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** True when `declared` is older than `removedIn` (the thing still existed in that version). */
export function isOlderThan(declared: CdkVersion, removedIn: string): boolean {
  const r = parseVersion(removedIn);
  return r !== undefined && compareVersions(declared, r) < 0;
}
