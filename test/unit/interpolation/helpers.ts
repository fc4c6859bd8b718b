// Shared helpers of the interpolation tests: a frozen clock and a one-call evaluator.
import { interpolate } from '../../../server/src/runtime/interpolation';
import { RuntimeError } from '../../../server/src/runtime/errors';

/** 2021-09-01T00:00:00Z, the clock of every test. */
export const env = { now: () => new Date('2021-09-01T00:00:00Z') };

/** Evaluates in "jinja" mode with `config` plus extra variables. */
export function ev(template: string, vars: Record<string, unknown> = {}, mode: 'jinja' | 'string' | 'boolean' = 'jinja'): unknown {
  return interpolate(template, { config: {}, parameters: {}, ...vars }, mode, env);
}

/** The error kind thrown by an evaluation, or 'none'. */
export function kindOf(fn: () => unknown): string {
  try {
    fn();
    return 'none';
  } catch (e) {
    if (e instanceof RuntimeError) return e.kind ?? 'no-kind';
    return `crash:${(e as Error).message}`;
  }
}
