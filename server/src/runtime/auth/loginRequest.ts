// The login request of SessionTokenAuthenticator (airbyte_cdk/sources/declarative/auth/token_provider.py): its `login_requester`
// is a full HttpRequester (URL, options, body, its own authenticator and error handler), so it is
// built and sent by the runtime's requester; this module only reports the exchange and maps IGNORE.
import type { HttpRequest, HttpResponse } from '../types';
import { configError, systemError } from '../errors';
import { createHttpRequester, RequestFailedError } from '../http/requester';
import { emptySlice } from '../records/streamSlice';
import type { AuthBuildContext, Component } from './authContext';
import { signalOf } from './authHttp';

/** A login requester ready to send: `send()` returns the successful response or throws a RuntimeError. */
export type LoginRequester = { send(onExchange: (req: HttpRequest, res: HttpResponse | null) => void): Promise<HttpResponse> };

/** Builds the login requester and its own authenticator now, so build-time errors surface at once. */
export function createLoginRequester(requester: Component, ctx: AuthBuildContext): LoginRequester {
  if (!requester || typeof requester !== 'object') throw configError('SessionTokenAuthenticator.login_requester must be an HttpRequester.');
  const own = ctx.build(requester.authenticator);
  const http = createHttpRequester(
    requester,
    ctx.config,
    { parameters: ctx.parameters, authenticator: own, disableRetries: ctx.disableRetries, signal: signalOf(ctx.env) },
    ctx.env,
  );
  return {
    async send(onExchange) {
      try {
        const exchange = await http.send({ slice: emptySlice(), nextPageToken: null, retrieverParts: [] });
        onExchange(exchange.request, exchange.response);
        // Spec §6.9: a login response the error handler ignored yields no token.
        if (exchange.resolution.action !== 'SUCCESS') {
          throw systemError('Failed to get session token: the login response was ignored by the error handler.', {
            status: exchange.response.status,
          });
        }
        return exchange.response;
      } catch (err) {
        if (err instanceof RequestFailedError) onExchange(err.exchange.request, err.exchange.response);
        throw err;
      }
    },
  };
}
