// One demo API per extension-host run, started in-process on 127.0.0.1 with the authentication routes
// mounted, plus the secret values the suites enter and observe (for the secret-safety checks).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { authRoutes } from '../../../demo/api/authRoutes';
import { DEMO_CREDENTIALS } from '../../../demo/api/authCredentials';
import secretValues from '../secretValues.json';
import demoConfig from '../../../demo/workspace/config.json';

let demo: Promise<DemoApi> | undefined;

/** The shared demo API (started on first use). */
export function demoApi(): Promise<DemoApi> {
  demo ??= startDemoApi({ port: 0, routes: [authRoutes] });
  return demo;
}

/** The demo workspace's config: its credentials are the secret testing values of the demo streams. */
export const DEMO_CONFIG = demoConfig;
const DEMO_SECRETS = [demoConfig.api_key, demoConfig.password, demoConfig.bearer_token, demoConfig.jwt_secret, demoConfig.client_secret];

/** The refresh token the demo API accepts now (it rotates on every use). */
export async function currentRefreshToken(): Promise<string> {
  const auth = (await demoApi()).state.auth as { refreshToken?: string } | undefined;
  return auth?.refreshToken ?? OAUTH.initialRefreshToken;
}

/** Demo OAuth credentials (accepted by the demo API); they are secrets of the OAuth fixture. */
export const OAUTH = DEMO_CREDENTIALS.oauth;

const remembered: string[] = [];

/** Secrets a suite used or obtained outside the demo API, for the checks and the runner's disk scan. */
export function rememberSecrets(values: string[]): void {
  remembered.push(...values);
}

/**
 * Every secret the run has seen: the entered values and the tokens the demo API issued. Also written
 * beside the workspace so the runner can scan the disk for them after the window has closed.
 */
export async function observedSecrets(): Promise<string[]> {
  const api = await demoApi();
  const auth = api.state.auth as { accessTokens?: Map<string, number>; refreshToken?: string } | undefined;
  const issued = [...(auth?.accessTokens?.keys() ?? [])];
  const rotated = auth?.refreshToken ? [auth.refreshToken] : [];
  const all = [
    ...secretValues.values,
    ...DEMO_SECRETS,
    OAUTH.clientSecret,
    OAUTH.initialRefreshToken,
    ...issued,
    ...rotated,
    ...remembered,
  ];
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder) fs.writeFileSync(path.join(folder, '..', 'observed-secrets.json'), JSON.stringify(all));
  return all;
}
