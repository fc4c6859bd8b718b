// The process-wide FormatIndex over the runtime's component catalog (runtime/schema/catalog.ts),
// built once on first use. Completion and hover read the format only through it.
import { allComponents, defaultTypeFor } from '../runtime';
import { FormatIndex } from './formatIndex';

let shared: FormatIndex | undefined;

/** The index completion and hover use in the server. */
export function catalogIndex(): FormatIndex {
  shared ??= new FormatIndex(allComponents(), (parent, field, hasClassName) => defaultTypeFor(parent, field, hasClassName));
  return shared;
}
