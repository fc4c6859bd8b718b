// Catalog of paginators and pagination strategies (airbyte_cdk/sources/declarative/requesters/paginators/default_paginator.py).
import { bool, int, one, str, type ComponentDef } from '../types';

export const PAGINATION_COMPONENTS: ComponentDef[] = [
  {
    type: 'DefaultPaginator',
    area: 'pagination',
    label: 'Default Paginator',
    description:
      'Requests page after page: the strategy computes the next page token, the options say where the token and page size go in the request.',
    fields: {
      pagination_strategy: one(
        ['PageIncrement', 'OffsetIncrement', 'CursorPagination', 'CustomPaginationStrategy'],
        'How the next page token is computed from the last response.',
        { required: true, label: 'Pagination Strategy' },
      ),
      page_size_option: one(['RequestOption'], 'Where the page size goes in each request (needs a strategy with `page_size`).', {
        label: 'Inject Page Size Into Outgoing HTTP Request',
      }),
      page_token_option: one(
        ['RequestOption', 'RequestPath'],
        'Where the page token goes: a request option, or `RequestPath` to request the token as the next URL.',
        { label: 'Inject Page Token Into Outgoing HTTP Request' },
      ),
      decoder: one(['JsonDecoder', 'XmlDecoder'], 'Format of the responses the strategy reads (normally taken from the retriever).', {}),
    },
    example:
      'type: DefaultPaginator\npagination_strategy:\n  type: CursorPagination\n  cursor_value: "{{ response.next }}"\n  stop_condition: "{{ not response.next }}"\npage_token_option:\n  type: RequestPath',
  },
  {
    type: 'NoPagination',
    area: 'pagination',
    label: 'No Pagination',
    description: 'Reads a single page per slice.',
    fields: {},
  },
  {
    type: 'PageIncrement',
    area: 'pagination',
    label: 'Page Increment',
    description: 'Numbers the pages: the token is the page number, increased by one while full pages come back.',
    fields: {
      page_size: int('Records per page; a page with fewer records ends the read.', {
        types: ['integer', 'string'],
        label: 'Page Size',
        templateContext: 'static',
        example: '100',
        examples: [100, "{{ config['page_size'] }}"],
      }),
      start_from_page: int('Number of the first page.', { default: 0, label: 'Start From Page', example: '1', examples: [0, 1] }),
      inject_on_first_request: bool('Send the page number with the first request too.', {
        default: false,
        label: 'Inject Page Number on First Request',
      }),
    },
  },
  {
    type: 'OffsetIncrement',
    area: 'pagination',
    label: 'Offset Increment',
    description: 'Counts records: the token is the offset, increased by the number of records received while full pages come back.',
    fields: {
      page_size: int('Records per page (the limit); a shorter page ends the read.', {
        types: ['integer', 'string'],
        label: 'Limit',
        templateContext: 'offset_page_size',
        example: '100',
        examples: [100, "{{ config['page_size'] }}"],
      }),
      inject_on_first_request: bool('Send offset 0 with the first request too.', {
        default: false,
        label: 'Inject Offset on First Request',
      }),
    },
  },
  {
    type: 'CursorPagination',
    area: 'pagination',
    label: 'Cursor Pagination',
    description:
      'Reads the next page token (a cursor or a next URL) from the last response, until `stop_condition` is true or no token comes back.',
    fields: {
      cursor_value: str('Template giving the next token from the response, headers or last record.', {
        required: true,
        label: 'Cursor Value',
        templateContext: 'pagination_cursor',
        example: '"{{ response.next_page }}"',
        examples: ['{{ response.next_page }}', "{{ headers['link']['next']['url'] }}", "{{ last_record['id'] }}"],
      }),
      page_size: int('Records per page, sent through `page_size_option`.', {
        types: ['integer', 'string'],
        label: 'Page Size',
        templateContext: 'static',
        examples: [100, "{{ config['page_size'] }}"],
      }),
      stop_condition: str('Template that ends the read when true.', {
        label: 'Stop Condition',
        templateContext: 'pagination_cursor',
        example: '"{{ not response.has_more }}"',
        examples: ['{{ not response.has_more }}', "{{ 'next' not in headers['link'] }}"],
      }),
      decoder: one(['JsonDecoder'], 'Format of the response the cursor is read from.', {}),
    },
  },
  {
    type: 'PaginationReset',
    area: 'pagination',
    label: 'Pagination Reset',
    addedIn: '7.0.0',
    description: 'What to do when an API refuses to paginate further: restart pagination, or split the slice with the cursor.',
    fields: {
      action: str('The reset action.', { required: true, enum: ['SPLIT_USING_CURSOR', 'RESET'] }),
      limits: one(['PaginationResetLimits'], 'When the reset triggers.', {}),
    },
  },
  {
    type: 'PaginationResetLimits',
    area: 'pagination',
    label: 'Pagination Reset Limits',
    addedIn: '7.0.0',
    description: 'Thresholds that trigger a pagination reset.',
    fields: { number_of_records: int('Reset after this many records in one pagination run.') },
  },
];
