// NoAuth (reference-behaviour.md §6.2): adds nothing to requests; also used when a requester has no authenticator.
import { emptyAuthParts, type Authenticator } from './authContext';

/** Builds the NoAuth authenticator. Never throws. */
export function createNoAuth(): Authenticator {
  return {
    authenticate: async () => emptyAuthParts(),
    secrets: () => [],
    invalidate: () => undefined,
  };
}
