// What each component's ajv validator checks, shared by the validators compiled at run time (tests,
// the runtime library) and the ones the build precompiles into the language server bundle
// (scripts/precompileValidators.ts), so both always check exactly the same thing.
import type { Options } from 'ajv';
import { componentSchema } from './fieldSchema';
import type { ComponentDef } from './types';

/** ajv options of every component validator. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, verbose: true };

/** The schema of a component's own fields; nested components are checked by the walker, so a slot only needs a mapping. */
export function validatorSchema(def: ComponentDef): object {
  return componentSchema(def, () => ({ type: 'object' }), false);
}
