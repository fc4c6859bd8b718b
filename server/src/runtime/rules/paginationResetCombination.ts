// Rule `pagination-reset-combination`: the combinations the CDK refuses when it builds a retriever
// with `pagination_reset` (Spec §7.8): `limits` together with a record filter, and
// SPLIT_USING_CURSOR on a stream without a DatetimeBasedCursor to narrow.
import { componentAt, isMapping, type Rule, type RuleFinding } from './types';

export const paginationResetCombination: Rule = {
  code: 'pagination-reset-combination',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'DeclarativeStream') continue;
      const retriever = componentAt(c.node, 'retriever');
      const reset = retriever && componentAt(retriever, 'pagination_reset');
      if (!retriever || !reset) continue;
      const at = [...c.path, 'retriever', 'pagination_reset'];
      const selector = componentAt(retriever, 'record_selector');
      if (isMapping(reset.limits) && selector && selector.record_filter !== undefined && selector.record_filter !== null) {
        out.push({
          code: this.code,
          severity: 'error',
          path: [...at, 'limits'],
          anchor: 'key',
          message:
            'pagination_reset `limits` cannot be combined with a `record_filter`: records the filter drops would not count toward the limit, so the CDK refuses this stream. Remove one of them.',
          related: [{ message: 'The record filter', path: [...c.path, 'retriever', 'record_selector', 'record_filter'] }],
        });
      }
      const cursor = componentAt(c.node, 'incremental_sync');
      if (reset.action === 'SPLIT_USING_CURSOR' && cursor?.type !== 'DatetimeBasedCursor') {
        out.push({
          code: this.code,
          severity: 'error',
          path: [...at, 'action'],
          anchor: 'value',
          message:
            "SPLIT_USING_CURSOR narrows the slice with the stream's DatetimeBasedCursor, and this stream has none. Add `incremental_sync` with a DatetimeBasedCursor, or use `action: RESET`.",
        });
      }
    }
    return out;
  },
};
