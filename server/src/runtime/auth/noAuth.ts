// NoAuth (airbyte_cdk/sources/declarative/auth/token.py): adds nothing to requests; also used when a requester has no authenticator.
import { emptyAuthParts, type Authenticator } from './authContext';

/** Builds the NoAuth authenticator. Never throws. */
export function createNoAuth(): Authenticator {
  return {
    authenticate: async () => emptyAuthParts(),
    secrets: () => [],
    invalidate: () => undefined,
  };
}
