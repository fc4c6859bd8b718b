// Types of secretScan.mjs for the TypeScript suites that import it.
export type EncodedNeedle = { encoding: string; value: string };
export function encodedNeedles(secret: string): EncodedNeedle[];
export function findSecretsIn(text: string, secrets: string[]): string[];
export function secretNeedles(runDir: string): string[];
export function scanForSecrets(roots: string[], needles: string[]): string[];
