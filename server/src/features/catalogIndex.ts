// The process-wide FormatIndex over the runtime's component catalog, built once on first use.
import { defaultTypeFor } from '../runtime/schema/defaultTypes';
import { FormatIndex, type ComponentInfo } from './formatIndex';

let shared: FormatIndex | undefined;

/** The index completion and hover use in the server. */
export function catalogIndex(): FormatIndex {
  shared ??= new FormatIndex(catalogComponents(), (parent, field, hasClassName) => defaultTypeFor(parent, field, hasClassName));
  return shared;
}

/** The catalog's components (runtime/schema/catalog.ts once it is on main; until then none). */
function catalogComponents(): ComponentInfo[] {
  return [];
}
