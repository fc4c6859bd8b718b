// The objects every command needs, created once by activate() and passed explicitly (no globals).
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { OutputLog } from './output';
import type { TestingValuesStore } from './secrets';

/** Shared services of the extension. */
export type Services = {
  context: vscode.ExtensionContext;
  client: LanguageClient;
  store: TestingValuesStore;
  log: OutputLog;
  /** Seals testing values in messages to the language server (protocol.ts). */
  sealKey: string;
};

/** Arguments of the stream lenses and commands (the URI as a string, as the server sends it). */
export type StreamTarget = { uri: string; streamName: string };
