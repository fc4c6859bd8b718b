// The HTML shell of our webviews: a strict Content-Security-Policy (no remote content, scripts only
// from the extension with a per-load nonce) and styles built on VS Code's theme variables.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { SHARED_CSS } from './webviewStyles';

/** Webview options: scripts on, resources only from out/webview. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'out', 'webview')] };
}

/** A page that loads `out/webview/<script>.js`; `title` becomes the document title (the e2e tests find frames by it). */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, script: string, title: string, extraCss = ''): string {
  const nonce = randomBytes(16).toString('base64');
  const src = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'out', 'webview', `${script}.js`));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${SHARED_CSS}${extraCss}</style>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${src}"></script>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
