// Public surface of the declarative OAuth consent flow (reference-behaviour.md §6.8), called by the
// extension's "Authorize with OAuth" command.
export { buildOAuthConsentUrl, exchangeOAuthCode, findConnectorInputSpecification, oauthInputsFromConfig } from './consentFlow';
export type { OAuthConsent, OAuthExchangeResult, OAuthInputs } from './consentFlow';
export { renderConsentTemplate } from './consentTemplate';
