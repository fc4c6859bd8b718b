// CustomAuthenticator (airbyte_cdk/sources/declarative/auth/declarative_authenticator.py): Python code from the connector's components.py,
// which this runtime cannot execute. Building one fails with a clear config error.
import { configError } from '../errors';
import type { Component } from './authContext';

/** Always throws: custom authenticators run only in the Python CDK. */
export function createCustomAuthenticator(component: Component): never {
  const className = typeof component.class_name === 'string' ? ` (${component.class_name})` : '';
  throw configError(
    `CustomAuthenticator${className} runs only in the Python CDK: its class lives in the connector's components.py and ` +
      'cannot be executed here. Use a declarative authenticator to test this stream in the editor.',
  );
}
