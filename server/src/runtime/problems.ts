// The located problem every checker in the runtime returns (parse, resolve, validate, rules).
// Offsets only: conversion to LSP positions happens in server/src/convert.ts.
import type { Span } from './types';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export type RelatedInfo = { message: string; span: Span };

export type Problem = {
  /** Stable kebab-case code, e.g. `yaml-syntax`, `unknown-reference`, `schema`. */
  code: string;
  message: string;
  severity: Severity;
  span: Span;
  related?: RelatedInfo[];
};
