// Catalog of client-side rate limiting (API budgets and call-rate policies).
import { int, many, obj, str, raw, type ComponentDef } from '../types';

const POLICIES = ['FixedWindowCallRatePolicy', 'MovingWindowCallRatePolicy', 'UnlimitedCallRatePolicy'];
const matchers = () => many(['HttpRequestRegexMatcher'], 'Requests this policy applies to.', { required: true, label: 'Matchers' });

export const RATE_LIMIT_COMPONENTS: ComponentDef[] = [
  {
    type: 'HTTPAPIBudget',
    area: 'rate-limits',
    label: 'HTTP API Budget',
    description: 'Client-side call budget of the API, shared by all streams; also reads rate-limit headers.',
    openFields: true,
    fields: {
      policies: many(POLICIES, 'The call-rate policies, first match wins.', { required: true, label: 'Policies' }),
      ratelimit_reset_header: str('Header giving when the limit resets.', { default: 'ratelimit-reset', label: 'Rate Limit Reset Header' }),
      ratelimit_remaining_header: str('Header giving the calls left.', {
        default: 'ratelimit-remaining',
        label: 'Rate Limit Remaining Header',
      }),
      status_codes_for_ratelimit_hit: raw({ type: 'array', items: { type: 'integer' } }, 'Statuses meaning the limit was hit.', {
        default: [429],
        label: 'Status Codes for Rate Limit Hit',
      }),
    },
  },
  {
    type: 'FixedWindowCallRatePolicy',
    area: 'rate-limits',
    label: 'Fixed Window Call Rate Policy',
    description: 'At most `call_limit` calls per fixed period.',
    openFields: true,
    fields: {
      period: str('Length of the window (ISO 8601 duration).', { required: true, label: 'Period', example: 'PT1M' }),
      call_limit: int('Calls allowed per window.', { required: true, label: 'Call Limit' }),
      matchers: matchers(),
    },
  },
  {
    type: 'MovingWindowCallRatePolicy',
    area: 'rate-limits',
    label: 'Moving Window Call Rate Policy',
    description: 'At most N calls in any sliding interval, for each of several rates.',
    openFields: true,
    fields: {
      rates: many(['Rate'], 'The rates.', { required: true, label: 'Rates' }),
      matchers: matchers(),
    },
  },
  {
    type: 'UnlimitedCallRatePolicy',
    area: 'rate-limits',
    label: 'Unlimited Call Rate Policy',
    description: 'No limit for the matching requests.',
    openFields: true,
    fields: { matchers: matchers() },
  },
  {
    type: 'Rate',
    area: 'rate-limits',
    typeOptional: true,
    label: 'Rate',
    description: 'A number of calls per interval.',
    openFields: true,
    fields: {
      limit: int('Calls allowed per interval.', {
        required: true,
        types: ['integer', 'string'],
        label: 'Limit',
        templateContext: 'static',
      }),
      interval: str('The interval (ISO 8601 duration).', { required: true, label: 'Interval', example: 'PT1S' }),
    },
  },
  {
    type: 'HttpRequestRegexMatcher',
    area: 'rate-limits',
    typeOptional: true,
    label: 'HTTP Request Matcher',
    description: 'Matches requests by method, URL and parameters.',
    openFields: true,
    fields: {
      method: str('HTTP method.', { label: 'Method' }),
      url_base: str('Base URL.', { label: 'URL Base' }),
      url_path_pattern: str('Regular expression on the path.', { label: 'URL Path Pattern' }),
      params: obj('Query parameters that must be present.', { label: 'Parameters' }),
      headers: obj('Headers that must be present.', { label: 'Headers' }),
      weight: int('How many calls one matching request counts for.', { types: ['integer', 'string'], label: 'Weight', addedIn: '7.0.0' }),
    },
  },
];
