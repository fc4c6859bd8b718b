// Rule `page-token-option-missing`: a DefaultPaginator whose strategy produces tokens, with no
// `page_token_option` and no template of the requester reading `next_page_token`, never sends the
// token: every page repeats the first request (Spec §7.1).
import type { Rule, RuleFinding } from './types';
import { componentAt } from './types';

const TOKEN_STRATEGIES = new Set(['CursorPagination', 'OffsetIncrement', 'PageIncrement']);

export const pageTokenOptionMissing: Rule = {
  code: 'page-token-option-missing',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'SimpleRetriever') continue;
      const paginator = componentAt(c.node, 'paginator');
      if (!paginator || paginator.type !== 'DefaultPaginator' || paginator.page_token_option != null) continue;
      const strategy = componentAt(paginator, 'pagination_strategy');
      if (!strategy || !TOKEN_STRATEGIES.has(strategy.type as string)) continue;
      // Authors often place the token themselves, e.g. `offset: "{{ next_page_token.next_page_token }}"`.
      if (JSON.stringify(c.node.requester ?? null).includes('next_page_token')) continue;
      out.push({
        code: this.code,
        severity: 'warning',
        path: [...c.path, 'paginator'],
        anchor: 'key',
        message: `DefaultPaginator with ${String(strategy.type)} has no \`page_token_option\` and the requester never reads \`next_page_token\`: each page repeats the same request. Add a RequestOption (or RequestPath for next-page URLs).`,
      });
    }
    return out;
  },
};
