// Types of secretEncodings.mjs for the TypeScript suites that import it.
export type EncodedNeedle = { encoding: string; value: string };
export function encodedNeedles(secret: string): EncodedNeedle[];
export function findSecretsIn(text: string, secrets: string[]): string[];
