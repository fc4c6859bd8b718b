// Rule `api-key-header-and-inject-into`: an ApiKeyAuthenticator needs exactly one of `header`
// and `inject_into`. Spec §6.5: neither or both is a build-time error in the CDK.
import type { Rule } from './types';

export const apiKeyHeaderAndInjectInto: Rule = {
  code: 'api-key-header-and-inject-into',
  check(ctx) {
    const out = [];
    for (const c of ctx.components) {
      if (c.type !== 'ApiKeyAuthenticator') continue;
      const hasHeader = c.node.header !== undefined && c.node.header !== null;
      const hasInject = c.node.inject_into !== undefined && c.node.inject_into !== null;
      if (hasHeader && hasInject) {
        out.push({
          code: this.code,
          severity: 'error' as const,
          path: [...c.path, 'header'],
          anchor: 'key' as const,
          message:
            'ApiKeyAuthenticator: `header` and `inject_into` cannot both be set. Remove `header` (deprecated) and name the header in `inject_into.field_name`.',
          related: [{ message: '`inject_into` is set here', path: [...c.path, 'inject_into'] }],
        });
      } else if (!hasHeader && !hasInject) {
        out.push({
          code: this.code,
          severity: 'error' as const,
          path: c.path,
          anchor: 'component' as const,
          message: 'ApiKeyAuthenticator: set `inject_into` (a RequestOption) to say where the key goes.',
        });
      }
    }
    return out;
  },
};
