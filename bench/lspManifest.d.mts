// Types of lspManifest.mjs for the TypeScript tests that import it.
/** A manifest text of roughly `lines` lines. */
export function generateManifest(lines: number): string;
