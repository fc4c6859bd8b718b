// Version numbers of the CDK and of a manifest's `version`: "6.45.1", "6.45.1.post3.dev1", "7.0.0rc1".
// Only the numeric release part is compared (a pre-release counts as its release).

/** The numeric release parts of a version text, or null when it does not start with a number. */
export function parseVersionText(text: string): number[] | null {
  const m = /^\s*v?(\d+(?:\.\d+)*)/.exec(text);
  return m ? m[1].split('.').map(Number) : null;
}

/** Negative when a < b, 0 when equal (missing parts are 0), positive when a > b. */
export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
