// createPaginationStrategy (docs/runtime.md): builds one pagination strategy component (§7.3-§7.6).
import type { HttpResponse, PaginatorOptions, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { createDecoder, firstDecoded, type Decoder } from '../records/decoders';
import { createDpathExtractor } from '../records/dpathExtractor';
import { createOffsetIncrement } from './offsetIncrement';
import { createPageIncrement } from './pageIncrement';
import { createCursorPagination } from './cursorPagination';

import type { PaginationStrategy, StrategyContext } from './strategy';
export type { PaginationStrategy, StrategyContext } from './strategy';

/** Builds a strategy; CustomPaginationStrategy and unknown types are config errors at build time. */
export function createPaginationStrategy(
  component: object,
  config: object,
  options: PaginatorOptions = {},
  env?: RuntimeEnv,
): PaginationStrategy {
  const c = component as Record<string, unknown>;
  if (!c || typeof c !== 'object') throw configError('pagination_strategy must be an object with a type.');
  const parameters = (c.$parameters as object) ?? options.parameters ?? {};
  const decoder = createDecoder(options.decoder as Record<string, unknown> | undefined);
  const sc: StrategyContext = {
    config,
    parameters,
    countRawRecords: rawCounter(decoder, options, config, parameters, env),
    decodedResponse: (r) => firstDecoded(decoder, r),
  };
  switch (c.type) {
    case 'OffsetIncrement':
      return createOffsetIncrement(c, sc, env);
    case 'PageIncrement':
      return createPageIncrement(c, sc, env);
    case 'CursorPagination':
      return createCursorPagination(c, sc, env);
    case 'CustomPaginationStrategy':
      throw configError(
        `CustomPaginationStrategy (${String(c.class_name ?? 'custom class')}) runs Python code and is not runnable outside the Python CDK; replace it with PageIncrement, OffsetIncrement or CursorPagination to test this stream here.`,
      );
    default:
      throw configError(
        `Unknown pagination strategy type ${JSON.stringify(c.type)}; expected PageIncrement, OffsetIncrement or CursorPagination.`,
      );
  }
}

function rawCounter(
  decoder: Decoder,
  options: PaginatorOptions,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
): (r: HttpResponse) => number | null {
  if (!options.recordExtractor) return () => null;
  const extractor = createDpathExtractor(options.recordExtractor as Record<string, unknown>, config, parameters, env);
  return (response) => {
    let n = 0;
    for (const element of decoder.decode(response)) n += extractor.extract(element).length;
    return n;
  };
}
