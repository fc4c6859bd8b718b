// Precompiled component validators. From source (tests, tsx) this module is empty and validators are
// compiled on first use; the language server bundle replaces it with standalone ajv code generated at
// build time (esbuild.mjs, scripts/precompileValidators.ts) so opening a manifest compiles nothing.
import type { ValidateFunction } from 'ajv';

/** Validators by component type, or null when they are compiled at run time. */
export const precompiledValidators: Record<string, ValidateFunction> | null = null;
