// The requester side of QueryProperties (CDK InterpolatedRequestOptionsProvider): a QueryProperties value
// of request_parameters is not a template; the retriever sends one request per chunk of properties
// (testRead/queryProperties.ts) and the chunk, from the slice's extra field `query_properties`, becomes
// that parameter, joined with commas, after the other parameters.
import { configError } from '../errors';
import type { StreamSlice } from '../records/streamSlice';

type Obj = Record<string, unknown>;

/** request_parameters without its QueryProperties values, and the key the chunk is sent under (null without one). */
export function splitQueryProperties(requestParameters: unknown): { parameters: unknown; key: string | null } {
  if (!requestParameters || typeof requestParameters !== 'object' || Array.isArray(requestParameters))
    return { parameters: requestParameters, key: null };
  let key: string | null = null;
  const rest: Obj = {};
  for (const [k, v] of Object.entries(requestParameters as Obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && (v as Obj).type === 'QueryProperties') key = k;
    else rest[k] = v;
  }
  return key === null ? { parameters: requestParameters, key: null } : { parameters: rest, key };
}

/** The evaluated parameters with the slice's chunk of properties added under `key`, as the reference does. */
export function withQueryProperties(parameters: Obj, key: string, slice: StreamSlice): Obj {
  const chunk = slice.extra_fields?.query_properties;
  if (chunk === undefined || chunk === null)
    throw configError(
      'QueryProperties component is defined but stream_partition does not contain query_properties. Please contact Airbyte Support',
    );
  if (!Array.isArray(chunk))
    throw configError(
      'QueryProperties component is defined but stream_slice.extra_fields.query_properties is not a List. Please contact Airbyte Support',
    );
  const out: Obj = {};
  for (const [k, v] of Object.entries(parameters)) if (k !== key) out[k] = v;
  out[key] = chunk.map(String).join(',');
  return out;
}
