// Rule `async-status-mapping`: each API status may appear once in an AsyncRetriever's status_mapping;
// the CDK refuses to build the stream otherwise, because it could not tell which state the status means.
import type { Rule, RuleFinding } from './types';
import { isMapping } from './types';

const STATES = ['running', 'completed', 'failed', 'timeout', 'skipped'];

export const asyncStatusMapping: Rule = {
  code: 'async-status-mapping',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'AsyncRetriever' || !isMapping(c.node.status_mapping)) continue;
      const mapping = c.node.status_mapping;
      const seen = new Map<string, { state: string; index: number }>();
      for (const state of STATES) {
        const list = mapping[state];
        if (!Array.isArray(list)) continue;
        list.forEach((status, index) => {
          if (typeof status !== 'string') return;
          const first = seen.get(status);
          if (!first) {
            seen.set(status, { state, index });
            return;
          }
          const where = first.state === state ? `twice in \`${state}\`` : `in both \`${first.state}\` and \`${state}\``;
          out.push({
            code: this.code,
            severity: 'error',
            path: [...c.path, 'status_mapping', state, index],
            anchor: 'value',
            message: `Status '${status}' is listed ${where}: each API status may map to one job state only, or the CDK refuses to build the stream.`,
            related: [{ message: `first listed in \`${first.state}\``, path: [...c.path, 'status_mapping', first.state, first.index] }],
          });
        });
      }
    }
    return out;
  },
};
