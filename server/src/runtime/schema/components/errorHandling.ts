// Catalog of error handling and back-off (airbyte_cdk/sources/declarative/requesters/error_handlers/default_error_handler.py).
import { int, many, num, str, raw, type ComponentDef } from '../types';

export const ERROR_HANDLING_COMPONENTS: ComponentDef[] = [
  {
    type: 'DefaultErrorHandler',
    area: 'error-handling',
    label: 'Default Error Handler',
    description: 'Decides per response whether to succeed, retry, ignore or fail, and how long to wait before a retry.',
    fields: {
      backoff_strategies: many(
        ['ConstantBackoffStrategy', 'ExponentialBackoffStrategy', 'WaitTimeFromHeader', 'WaitUntilTimeFromHeader', 'CustomBackoffStrategy'],
        'How long to wait before retrying; the first that gives a time wins.',
        { label: 'Backoff Strategies' },
      ),
      max_retries: int('Most retries of one request.', {
        types: ['integer', 'string'],
        default: 5,
        label: 'Max Retry Count',
        templateContext: 'static',
        examples: [5, 0, 10],
      }),
      response_filters: many(['HttpResponseFilter'], 'Rules matching responses to actions, tried in order before the default mapping.', {
        label: 'Response Filters',
      }),
    },
    example: 'type: DefaultErrorHandler\nresponse_filters:\n  - type: HttpResponseFilter\n    action: IGNORE\n    http_codes: [404]',
  },
  {
    type: 'CompositeErrorHandler',
    area: 'error-handling',
    label: 'Composite Error Handler',
    description: 'Tries several error handlers in order; the first that matches decides.',
    fields: {
      error_handlers: many(['CompositeErrorHandler', 'DefaultErrorHandler', 'CustomErrorHandler'], 'The handlers, in order.', {
        required: true,
        label: 'Error Handlers',
      }),
    },
  },
  {
    type: 'HttpResponseFilter',
    area: 'error-handling',
    label: 'HTTP Response Filter',
    description: 'Matches responses by status, message text or predicate, and names the action to take.',
    fields: {
      action: str('What to do with a matching response.', {
        enum: ['SUCCESS', 'FAIL', 'RETRY', 'IGNORE', 'RESET_PAGINATION', 'RATE_LIMITED', 'REFRESH_TOKEN_THEN_RETRY'],
        label: 'Action',
        example: 'RETRY',
      }),
      failure_type: str('How a failure is classified.', {
        enum: ['system_error', 'config_error', 'transient_error'],
        label: 'Failure Type',
      }),
      error_message: str('Message reported for a matching response.', { label: 'Error Message', templateContext: 'response_message' }),
      error_message_contains: str('Matches responses whose error message contains this text.', { label: 'Error Message Substring' }),
      http_codes: raw({ type: 'array', items: { type: 'integer' }, uniqueItems: true }, 'Matches these HTTP statuses.', {
        label: 'HTTP Codes',
        example: '[429, 503]',
      }),
      predicate: str('Template that matches a response when true.', {
        label: 'Predicate',
        templateContext: 'response_predicate',
        example: '"{{ \'error\' in response }}"',
        examples: ["{{ 'error' in response }}", "{{ response.get('code') == 'RATE_LIMITED' }}"],
      }),
    },
  },
  {
    type: 'ConstantBackoffStrategy',
    area: 'error-handling',
    label: 'Constant Backoff',
    description: 'Waits the same time before every retry.',
    fields: {
      backoff_time_in_seconds: num('Seconds to wait.', {
        required: true,
        types: ['number', 'string'],
        label: 'Backoff Time',
        templateContext: 'static',
        examples: [30, 30.5, "{{ config['backoff_time'] }}"],
      }),
      jitter_range_in_seconds: num('Random extra wait up to this many seconds.', { label: 'Jitter Range', addedIn: '7.0.0' }),
    },
  },
  {
    type: 'ExponentialBackoffStrategy',
    area: 'error-handling',
    label: 'Exponential Backoff',
    description: 'Waits `factor × 2^attempt` seconds before each retry.',
    fields: {
      factor: num('Multiplier of the wait.', {
        types: ['number', 'string'],
        default: 5,
        label: 'Factor',
        templateContext: 'static',
        examples: [5, 5.5, 10],
      }),
      jitter_range_in_seconds: num('Random extra wait up to this many seconds.', { label: 'Jitter Range', addedIn: '7.0.0' }),
    },
  },
  {
    type: 'WaitTimeFromHeader',
    area: 'error-handling',
    label: 'Wait Time Extracted From Response Header',
    description: 'Waits the number of seconds a response header gives.',
    fields: {
      header: str('The header, such as `Retry-After`.', {
        required: true,
        label: 'Response Header Name',
        templateContext: 'static',
        example: 'Retry-After',
        examples: ['Retry-After'],
      }),
      regex: str('Extracts the number from the header value.', { label: 'Extraction Regex', examples: ['([-+]?\\d+)'] }),
      max_waiting_time_in_seconds: num('Fail instead of waiting longer than this.', {
        types: ['number', 'string'],
        label: 'Max Waiting Time in Seconds',
        templateContext: 'static',
      }),
    },
  },
  {
    type: 'WaitUntilTimeFromHeader',
    area: 'error-handling',
    label: 'Wait Until Time Defined In Response Header',
    description: 'Waits until the time (epoch seconds) a response header gives.',
    fields: {
      header: str('The header.', {
        required: true,
        label: 'Response Header',
        templateContext: 'static',
        example: 'X-RateLimit-Reset',
        examples: ['X-RateLimit-Reset', 'wait_time'],
      }),
      min_wait: num('Shortest wait in seconds.', {
        types: ['number', 'string'],
        label: 'Minimum Wait Time',
        templateContext: 'static',
        examples: [10, 60],
      }),
      regex: str('Extracts the time from the header value.', { label: 'Extraction Regex', templateContext: 'static' }),
      max_waiting_time_in_seconds: num('Fail instead of waiting longer than this.', {
        types: ['number', 'string'],
        label: 'Max Waiting Time in Seconds',
        templateContext: 'static',
        addedIn: '7.0.0',
      }),
    },
  },
];
