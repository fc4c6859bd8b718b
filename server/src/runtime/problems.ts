// The located problem every checker in the runtime returns (parse, resolve, validate, rules).
// Offsets only: conversion to LSP positions happens in server/src/convert.ts.
import type { Span } from './types';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export type RelatedInfo = { message: string; span: Span };

/**
 * What an editor needs to fix a problem, typed so that no fix depends on the message's wording:
 * `replace` the problem's span with a suggestion ("did you mean"), `add-field` to the component whose
 * key the span covers, or merge a requester's `url_base` and `path` into one `url`.
 */
export type ProblemFix =
  | { kind: 'replace'; text: string }
  | { kind: 'add-field'; component: string; field: string }
  | { kind: 'merge-url-base-and-path' }
  /** The CDK's migration of a requester's `request_body_json` / `request_body_data` into a typed `request_body`. */
  | { kind: 'migrate-request-body' };

export type Problem = {
  /** Stable kebab-case code, e.g. `yaml-syntax`, `unknown-reference`, `schema`. */
  code: string;
  message: string;
  severity: Severity;
  span: Span;
  related?: RelatedInfo[];
  fix?: ProblemFix;
};
