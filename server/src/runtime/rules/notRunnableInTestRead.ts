// Rule `not-runnable-in-test-read`: a component (or field) of the catalog that a test read here does
// not run (schema/runnability.ts) gets a warning saying why, and one that has no effect on a test read
// gets an information note, so that no component is skipped silently. The read of a stream using a
// not-runnable one stops with the same reason.
import { COMPONENT_RUNNABILITY, FIELD_RUNNABILITY } from '../schema/runnability';
import type { Rule, RuleFinding } from './types';

export const notRunnableInTestRead: Rule = {
  code: 'not-runnable-in-test-read',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      const r = COMPONENT_RUNNABILITY[c.type];
      if (r) {
        out.push({
          code: this.code,
          severity: r.kind === 'not_runnable' ? 'warning' : 'information',
          path: c.path,
          anchor: 'component',
          message:
            r.kind === 'not_runnable'
              ? `Not runnable in a test read${r.onlyWithState ? ' with an input state' : ''}: ${r.reason}.`
              : `${c.type} has no effect on a test read: ${r.reason}.`,
        });
      }
      for (const key of Object.keys(c.node)) {
        const f = FIELD_RUNNABILITY[`${c.type}.${key}`];
        if (!f || c.node[key] === undefined || c.node[key] === null) continue;
        out.push({
          code: this.code,
          severity: f.kind === 'not_runnable' ? 'warning' : 'information',
          path: [...c.path, key],
          anchor: 'key',
          message:
            f.kind === 'not_runnable'
              ? `Not runnable in a test read${f.onlyWithState ? ' with an input state' : ''}: ${f.reason}.`
              : `\`${key}\` has no effect on a test read: ${f.reason}.`,
        });
      }
    }
    return out;
  },
};
