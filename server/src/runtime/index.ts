// The runtime library's public entry point, bundled alone into out/runtime.js. Its exports are the
// contract of ../shared/spec/runtime-api.md; nothing here may import vscode or the language server.
export { parseManifest } from './manifest/parse';
export { RuntimeError } from './errors';
export { interpolate } from './interpolation';
export type { HttpRequest, HttpResponse, RuntimeEnv, RequestParts, PaginatorOptions, TestReadLimits, AuxiliaryRequest, AuthenticatorHooks, AuthenticatorOptions } from './types';
export { createHttpFetch, resolveFetch, TransportError, DEFAULT_TRANSPORT_OPTIONS } from './http/transport';
export type { TransportOptions, FetchFunction } from './http/transport';
export { createAuthenticator } from './auth';
export type { Authenticator } from './auth';
export { createRequestOption } from './http/requestOption';
export type { RequestOption, InjectInto } from './http/requestOption';
export { createPaginator } from './pagination/defaultPaginator';
export type { Paginator } from './pagination/defaultPaginator';
export { createPaginationStrategy } from './pagination/paginationStrategy';
export { createDecoder } from './records/decoders';
export type { Decoder, DecoderInput } from './records/decoders';
export type { PaginationStrategy } from './pagination/paginationStrategy';
export { resolveManifest } from './manifest/resolve';
export type { ResolvedManifest, ResolveOptions, ManifestOrigins } from './manifest/resolve';
export { testRead, DEFAULT_TEST_READ_LIMITS } from './testRead/testRead';
export type { StreamRead, StreamReadSlice, StreamReadPage, LogMessage, TestReadProgress } from './testRead/streamRead';
export { createHttpRequester } from './http/requester';
export { buildOAuthConsentUrl, exchangeOAuthCode, findConnectorInputSpecification, oauthInputsFromConfig, renderConsentTemplate } from './oauth';
export { validateManifest } from './manifest/validateManifest';
export { getComponent, allComponents, fieldInfo, componentTypesForSlot, defaultTypeFor, requiredFields, templateContextFor } from './schema/catalog';
export type { Problem, Severity, RelatedInfo } from './problems';
export type { OAuthConsent, OAuthExchangeResult, OAuthInputs } from './oauth';
