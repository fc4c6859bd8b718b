// Rule `request-option-key`: a RequestOption names its key with exactly one of `field_name` and
// `field_path`, and `field_path` only works with `inject_into: body_json` (Spec §5.1). Manifests
// written for a CDK before `field_path` existed may carry both (often copied in by `$parameters`):
// that CDK ignored `field_path`, so for them it is a warning, as in the runtime.
import { FIELD_PATH_ADDED_IN } from '../http/requestOption';
import { isOlderThan } from '../schema/versions';
import type { Rule, RuleFinding } from './types';

export const requestOptionKey: Rule = {
  code: 'request-option-key',
  check(ctx) {
    const out: RuleFinding[] = [];
    const older = ctx.version !== undefined && isOlderThan(ctx.version, FIELD_PATH_ADDED_IN);
    for (const c of ctx.components) {
      if (c.type !== 'RequestOption') continue;
      const hasName = c.node.field_name !== undefined && c.node.field_name !== null;
      const hasPath = c.node.field_path !== undefined && c.node.field_path !== null;
      if (hasName && hasPath) {
        out.push(
          older
            ? {
                code: this.code,
                severity: 'warning',
                path: [...c.path, 'field_path'],
                anchor: 'key',
                message: `RequestOption has both \`field_name\` and \`field_path\`. The CDK this manifest declares (${ctx.version!.join('.')}) predates \`field_path\` (added in ${FIELD_PATH_ADDED_IN}) and ignores it; from ${FIELD_PATH_ADDED_IN} on this is an error. Remove \`field_path\`.`,
              }
            : {
                code: this.code,
                severity: 'error',
                path: [...c.path, 'field_path'],
                anchor: 'key',
                message:
                  'RequestOption takes only one of `field_name` and `field_path`, not both. Keep `field_name` for a top-level key, or `field_path` for a nested JSON body key.',
              },
        );
        continue;
      }
      if (!hasName && !hasPath) {
        out.push({
          code: this.code,
          severity: 'error',
          path: c.path,
          anchor: 'component',
          message: 'RequestOption needs `field_name` (the key to set) or `field_path` (a nested JSON body key).',
        });
        continue;
      }
      if (hasPath && c.node.inject_into !== 'body_json' && !older) {
        out.push({
          code: this.code,
          severity: 'error',
          path: [...c.path, 'field_path'],
          anchor: 'key',
          message: `\`field_path\` works only with \`inject_into: body_json\` (this option injects into ${String(c.node.inject_into)}); use \`field_name\` instead.`,
        });
      }
    }
    return out;
  },
};
