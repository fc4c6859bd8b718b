// Rule `page-token-option-missing`: a DefaultPaginator whose strategy produces tokens but that has
// no `page_token_option` never sends the token, so every page repeats the first request (Spec §7.1).
import type { Rule, RuleFinding } from './types';
import { componentAt } from './types';

const TOKEN_STRATEGIES = new Set(['CursorPagination', 'OffsetIncrement', 'PageIncrement']);

export const pageTokenOptionMissing: Rule = {
  code: 'page-token-option-missing',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'DefaultPaginator' || c.node.page_token_option != null) continue;
      const strategy = componentAt(c.node, 'pagination_strategy');
      if (!strategy || !TOKEN_STRATEGIES.has(strategy.type as string)) continue;
      out.push({
        code: this.code, severity: 'warning', path: c.path, anchor: 'component',
        message: `DefaultPaginator with ${String(strategy.type)} has no \`page_token_option\`: the next page token is never sent, so each page repeats the same request. Add a RequestOption (or RequestPath for next-page URLs).`,
      });
    }
    return out;
  },
};
