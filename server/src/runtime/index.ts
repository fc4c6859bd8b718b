// The runtime library's public entry point, bundled alone into out/runtime.js. Its exports are the
// contract of ../shared/spec/runtime-api.md; nothing here may import vscode or the language server.
export { parseManifest } from './manifest/parse';
export { RuntimeError } from './errors';
export { interpolate } from './interpolation';
export type { HttpRequest, HttpResponse, RuntimeEnv, RequestParts, PaginatorOptions, TestReadLimits } from './types';
export { resolveManifest } from './manifest/resolve';
export type { ResolvedManifest, ResolveOptions, ManifestOrigins } from './manifest/resolve';
export { validateManifest } from './manifest/validateManifest';
export { getComponent, allComponents, fieldInfo, componentTypesForSlot, defaultTypeFor, requiredFields, templateContextFor } from './schema/catalog';
export type { Problem, Severity, RelatedInfo } from './problems';
