// Every semantic rule, run in this order after schema validation. One file per rule.
import { apiKeyHeaderAndInjectInto } from './apiKeyHeaderAndInjectInto';
import { asyncStatusMapping } from './asyncStatusMapping';
import { collidingInjectedKeys } from './collidingInjectedKeys';
import { customComponent } from './customComponent';
import { notRunnableInTestRead } from './notRunnableInTestRead';
import { oauthRequiredFields } from './oauthRequiredFields';
import { pageTokenOptionMissing } from './pageTokenOptionMissing';
import { paginationResetCombination } from './paginationResetCombination';
import { requestOptionKey } from './requestOptionKey';
import { requestPathFieldName } from './requestPathFieldName';
import { prototypePathSegment } from './prototypePathSegment';
import type { Rule } from './types';

export const RULES: readonly Rule[] = [
  apiKeyHeaderAndInjectInto,
  collidingInjectedKeys,
  pageTokenOptionMissing,
  requestPathFieldName,
  requestOptionKey,
  paginationResetCombination,
  oauthRequiredFields,
  customComponent,
  asyncStatusMapping,
  notRunnableInTestRead,
  prototypePathSegment,
];

export type { Rule, RuleContext, RuleFinding } from './types';
