// SelectiveAuthenticator (airbyte_cdk/sources/declarative/auth/selective_authenticator.py): picks one of several authenticators by a
// value in the config; the chosen one replaces the selective authenticator entirely.
import { configError } from '../errors';
import { pythonStr } from '../pythonText';
import { stringArray, valueAtPath, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/** Builds every listed authenticator, then returns the one selected by the config. Throws config errors. */
export function createSelectiveAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const path = stringArray(component.authenticator_selection_path, 'SelectiveAuthenticator.authenticator_selection_path');
  const options = component.authenticators;
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw configError('SelectiveAuthenticator.authenticators must be an object mapping names to authenticators.');
  }
  // Spec §6.11: every listed authenticator is constructed at build time, before the selection.
  const built = new Map<string, Authenticator>();
  for (const [name, sub] of Object.entries(options as Record<string, unknown>)) built.set(name, ctx.build(sub));
  const selected = valueAtPath(ctx.config, path);
  if (selected === undefined) {
    throw configError(
      `The path from \`authenticator_selection_path\` is not found in the config. (SelectiveAuthenticator: the selection path ${JSON.stringify(path)} was not found in the config; set it in the testing values.)`,
    );
  }
  const key = pythonStr(selected);
  const chosen = built.get(key);
  if (!chosen) {
    throw configError(
      `The authenticator \`${key}\` is not found. (SelectiveAuthenticator: the config selects '${key}', which is not one of the listed authenticators: ${[...built.keys()].join(', ')}.)`,
    );
  }
  return chosen;
}
