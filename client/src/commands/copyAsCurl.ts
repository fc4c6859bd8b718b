// "Copy as cURL" of a request in the results view. The view's request is already masked; "with
// secrets" asks the server to re-render its masked credentials from the testing values (sealed both
// ways) and puts the command on the clipboard only: it is never shown, logged or kept.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { requestToCurl, type CurlSource } from '../../../server/src/runtime/shared/curlCommand';
import { openConfig, sealConfig, UnmaskRequestRequest, type UnmaskRequestParams } from '../../../server/src/protocol';

/** Copies the request as cURL; returns the number of characters copied (0 when nothing was). */
export async function copyRequestAsCurl(
  services: Services,
  manifest: vscode.Uri,
  streamName: string,
  request: CurlSource,
  withSecrets: boolean,
): Promise<number> {
  if (!withSecrets) {
    const command = requestToCurl(request);
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage('Airbyte: request copied as cURL (secrets masked as ****).');
    return command.length;
  }
  const config = await services.store.get(manifest);
  if (!config) {
    void vscode.window.showWarningMessage(
      'Airbyte: this manifest has no testing values to put back into the request; use "Copy as cURL" (masked) or set the testing values.',
    );
    return 0;
  }
  const params: UnmaskRequestParams = {
    uri: manifest.toString(),
    streamName,
    request: request as UnmaskRequestParams['request'],
    config: sealConfig(config, services.sealKey),
  };
  const result = await services.client.sendRequest(UnmaskRequestRequest, params);
  const command = requestToCurl(openConfig(result.request, services.sealKey) as CurlSource);
  await vscode.env.clipboard.writeText(command);
  const left = result.stillMasked.length ? ` Still masked: ${result.stillMasked.join(', ')}.` : '';
  void vscode.window.showInformationMessage(
    `Airbyte: request copied as cURL with its secrets from the testing values; paste it only where secrets may go.${left}`,
  );
  return command.length;
}
