// Types of secretScan.mjs for the TypeScript suites that import it.
export { encodedNeedles, findSecretsIn, type EncodedNeedle } from './secretEncodings.mjs';
export function secretNeedles(runDir: string): string[];
export function scanForSecrets(roots: string[], needles: string[]): string[];
