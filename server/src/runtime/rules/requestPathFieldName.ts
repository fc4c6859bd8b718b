// Rule `request-path-field-name`: RequestPath takes no field: the page token replaces the request
// URL (Spec §5.2). A `field_name` / `inject_into` there suggests a RequestOption was meant.
import type { Rule, RuleFinding } from './types';

export const requestPathFieldName: Rule = {
  code: 'request-path-field-name',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'RequestPath') continue;
      for (const key of ['field_name', 'inject_into', 'field_path']) {
        if (!(key in c.node)) continue;
        out.push({
          code: this.code,
          severity: 'warning',
          path: [...c.path, key],
          anchor: 'key',
          message: `RequestPath ignores \`${key}\`: the page token is used as the next request's URL. To send the token as a parameter, use \`type: RequestOption\`.`,
        });
      }
    }
    return out;
  },
};
