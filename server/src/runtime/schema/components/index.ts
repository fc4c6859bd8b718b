// Every component of the catalog, in one list (the per-area files are the source of truth).
import type { ComponentDef } from '../types';
import { AUTH_COMPONENTS } from './auth';
import { CUSTOM_COMPONENTS, STATE_COMPONENTS } from './custom';
import { DYNAMIC_STREAM_COMPONENTS } from './dynamicStreams';
import { ERROR_HANDLING_COMPONENTS } from './errorHandling';
import { INCREMENTAL_COMPONENTS } from './incremental';
import { PAGINATION_COMPONENTS } from './pagination';
import { PARTITIONING_COMPONENTS } from './partitioning';
import { RATE_LIMIT_COMPONENTS } from './rateLimits';
import { REQUESTER_COMPONENTS } from './requester';
import { SCHEMA_LOADER_COMPONENTS } from './schemaLoaders';
import { DECODER_COMPONENTS, SELECTION_COMPONENTS } from './selection';
import { SPEC_COMPONENTS } from './spec';
import { STREAM_COMPONENTS } from './streams';
import { TRANSFORMATION_COMPONENTS } from './transformations';

export const ALL_COMPONENTS: readonly ComponentDef[] = [
  ...STREAM_COMPONENTS,
  ...REQUESTER_COMPONENTS,
  ...AUTH_COMPONENTS,
  ...PAGINATION_COMPONENTS,
  ...SELECTION_COMPONENTS,
  ...DECODER_COMPONENTS,
  ...INCREMENTAL_COMPONENTS,
  ...PARTITIONING_COMPONENTS,
  ...ERROR_HANDLING_COMPONENTS,
  ...TRANSFORMATION_COMPONENTS,
  ...SCHEMA_LOADER_COMPONENTS,
  ...SPEC_COMPONENTS,
  ...DYNAMIC_STREAM_COMPONENTS,
  ...RATE_LIMIT_COMPONENTS,
  ...STATE_COMPONENTS,
  ...CUSTOM_COMPONENTS,
];
