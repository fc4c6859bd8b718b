// Decides whether a YAML document is a connector manifest, from its top-level keys or the configured
// globs. A cheap line scan on purpose: the client never parses manifests (design invariant 6).
import * as vscode from 'vscode';
import { looksLikeManifest } from './manifestText';

/** True when the document is YAML and is a manifest by content or by one of the globs. */
export function isManifestDocument(doc: vscode.TextDocument, globs: readonly string[]): boolean {
  if (doc.languageId !== 'yaml') return false;
  if (globs.some((pattern) => vscode.languages.match({ pattern }, doc) > 0)) return true;
  return looksLikeManifest(doc.getText());
}
