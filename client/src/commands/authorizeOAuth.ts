// "Authorize with OAuth": runs the manifest's declarative OAuth flow. The server builds the consent
// URL; the browser is opened with openExternal; the code comes back on a loopback redirect whose state
// is checked; the server exchanges the code; the tokens go straight into SecretStorage.
import * as vscode from 'vscode';
import {
  OAuthConsentRequest,
  OAuthExchangeRequest,
  sealConfig,
  openConfig,
  type OAuthConsentParams,
  type OAuthExchangeParams,
} from '../../../server/src/protocol';
import { startLoopbackReceiver } from '../oauthLoopback';
import type { Services } from '../services';
import { manifestUriFrom } from './pickTarget';

/** Arguments: the manifest, and optionally the opener of the consent URL (the default opens the system browser). */
export type AuthorizeArgs = { uri?: string; openConsentUrl?: (url: string) => Thenable<boolean> };

/** Runs the flow; resolves true once tokens are stored. */
export async function authorizeOAuth(services: Services, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest first.');
    return false;
  }
  const open =
    (arg as AuthorizeArgs | undefined)?.openConsentUrl ?? ((url: string) => vscode.env.openExternal(vscode.Uri.parse(url, true)));
  const config = (await services.store.get(uri)) ?? {};
  const port = vscode.workspace.getConfiguration('airbyte').get<number>('oauth.redirectPort', 0);
  let state: string | undefined;
  const receiver = await startLoopbackReceiver(() => state, { port });
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Authorizing with OAuth', cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => receiver.close());
        await vscode.workspace.openTextDocument(uri);
        const consentParams: OAuthConsentParams = {
          uri: uri.toString(),
          config: sealConfig(config, services.sealKey),
          redirectUri: receiver.redirectUri,
        };
        const consent = await services.client.sendRequest(OAuthConsentRequest, consentParams, token);
        state = consent.state;
        progress.report({ message: 'waiting for the browser…' });
        services.log.info(`OAuth: consent page opened; waiting for the redirect on ${receiver.redirectUri}`);
        if (!(await open(consent.consentUrl))) throw new Error('The consent page could not be opened.');
        const code = await receiver.code;
        progress.report({ message: 'exchanging the code…' });
        const exchangeParams: OAuthExchangeParams = {
          uri: uri.toString(),
          config: sealConfig(config, services.sealKey),
          code,
          state: consent.state,
          redirectUri: receiver.redirectUri,
        };
        const { configUpdate } = await services.client.sendRequest(OAuthExchangeRequest, exchangeParams, token);
        await services.store.merge(uri, openConfig(configUpdate, services.sealKey));
        services.log.info(`OAuth: tokens stored in the testing values of ${vscode.workspace.asRelativePath(uri)}`);
        void vscode.window.showInformationMessage(
          `Authorized: the tokens were saved to the testing values of ${vscode.workspace.asRelativePath(uri)} (secret storage).`,
        );
        return true;
      },
    );
  } catch (e) {
    const message = (e as Error).message;
    services.log.warn(`OAuth authorization failed: ${message}`);
    void vscode.window.showErrorMessage(`OAuth authorization failed: ${message}`);
    return false;
  } finally {
    receiver.close();
  }
}
