// The runtime library's public entry point, bundled alone into out/runtime.js. Its exports are the
// contract of ../shared/spec/runtime-api.md; nothing here may import vscode or the language server.
export { parseManifest } from './manifest/parse';
export { RuntimeError } from './errors';
export { interpolate } from './interpolation';
export type { HttpRequest, HttpResponse, RuntimeEnv, RequestParts, PaginatorOptions, TestReadLimits } from './types';
export { createAuthenticator } from './auth';
export type { Authenticator } from './auth';
export { createRequestOption } from './http/requestOption';
export type { RequestOption, InjectInto } from './http/requestOption';
export type { AuxiliaryRequest, AuthenticatorHooks, AuthenticatorOptions } from './types';
export { buildOAuthConsentUrl, exchangeOAuthCode, findConnectorInputSpecification, renderConsentTemplate } from './oauth';
export type { OAuthConsent, OAuthExchangeResult, OAuthInputs } from './oauth';
