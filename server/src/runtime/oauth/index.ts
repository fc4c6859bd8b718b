// Public surface of the declarative OAuth consent flow (airbyte_cdk/sources/declarative/declarative_component_schema.yaml), called by the
// extension's "Authorize with OAuth" command.
export { buildOAuthConsentUrl, exchangeOAuthCode, findConnectorInputSpecification, oauthInputsFromConfig } from './consentFlow';
export type { OAuthConsent, OAuthExchangeResult, OAuthInputs } from './consentFlow';
export { renderConsentTemplate } from './consentTemplate';
