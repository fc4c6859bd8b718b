// ApiKeyAuthenticator (airbyte_cdk/sources/declarative/auth/token.py): a rendered token injected as a header, query
// parameter, form field or JSON field. The deprecated `header` field is a shortcut for header injection.
import type { AuthParts } from '../types';
import { configError } from '../errors';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { emptyAuthParts, renderText, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/**
 * Builds the RequestOption of an ApiKey-like component from `inject_into` or the deprecated `header`.
 * Throws at build time when neither or both are given (§6.5).
 */
export function apiKeyRequestOption(component: Component, ctx: AuthBuildContext, typeName: string): RequestOption {
  const hasInject = component.inject_into !== undefined && component.inject_into !== null;
  const hasHeader = component.header !== undefined && component.header !== null;
  if (hasInject && hasHeader) {
    throw configError(`${typeName} accepts only one of 'inject_into' or the deprecated 'header', not both; keep inject_into.`);
  }
  if (!hasInject && !hasHeader) {
    throw configError(`${typeName} requires 'inject_into' (a RequestOption saying where the key goes) or the deprecated 'header'.`);
  }
  // Spec §6.5: the RequestOption is built with the authenticator's own $parameters.
  const option = hasInject
    ? (component.inject_into as object)
    : { type: 'RequestOption', inject_into: 'header', field_name: component.header };
  return createRequestOption(option, ctx.config, ctx.parameters, ctx.requestOptionCompat);
}

/** Injects a token; spec §6.1: a header whose name renders empty is not sent at all. */
export function injectToken(option: RequestOption, parts: AuthParts, token: string): void {
  if (option.inject_into === 'header' && !option.field_name) return;
  option.inject(parts, token);
}

/** Builds an ApiKeyAuthenticator. The token is rendered at every use (no caching). */
export function createApiKeyAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const option = apiKeyRequestOption(component, ctx, 'ApiKeyAuthenticator');
  return {
    async authenticate() {
      const parts = emptyAuthParts();
      injectToken(option, parts, renderText(ctx, component.api_token, ''));
      return parts;
    },
    secrets: () => [],
    invalidate: () => undefined,
  };
}
