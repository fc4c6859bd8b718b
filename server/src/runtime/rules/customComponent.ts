// Rule `custom-component`: components implemented by Python classes (`class_name`) run only in the
// Python CDK, so the streams that use them are read on the Airbyte CDK engine. Information only.
import type { Rule, RuleFinding } from './types';

export const customComponent: Rule = {
  code: 'custom-component',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (!c.type.startsWith('Custom') || typeof c.node.class_name !== 'string') continue;
      out.push({
        code: this.code,
        severity: 'information',
        path: [...c.path, 'class_name'],
        anchor: 'value',
        message: `${c.type} \`${c.node.class_name}\` is Python code of the connector: it runs only in the Python CDK, so Run stream reads streams using it on the Airbyte CDK engine (your Python with airbyte-cdk; docs/engines.md).`,
      });
    }
    return out;
  },
};
