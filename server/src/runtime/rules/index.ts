// Every semantic rule, run in this order after schema validation. One file per rule.
import { apiKeyHeaderAndInjectInto } from './apiKeyHeaderAndInjectInto';
import { collidingInjectedKeys } from './collidingInjectedKeys';
import { customComponent } from './customComponent';
import { oauthRequiredFields } from './oauthRequiredFields';
import { pageTokenOptionMissing } from './pageTokenOptionMissing';
import { requestPathFieldName } from './requestPathFieldName';
import type { Rule } from './types';

export const RULES: readonly Rule[] = [
  apiKeyHeaderAndInjectInto,
  collidingInjectedKeys,
  pageTokenOptionMissing,
  requestPathFieldName,
  oauthRequiredFields,
  customComponent,
];

export type { Rule, RuleContext, RuleFinding } from './types';
