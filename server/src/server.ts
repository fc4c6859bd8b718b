// The language server process: makes the stdio connection and hands it to one
// ManifestLanguageServer (languageServer.ts), which holds all state and is the only module that
// touches the connection. A stray exception is logged, never allowed to end the process.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startLanguageServer } from './languageServer';

const server = startLanguageServer(createConnection(ProposedFeatures.all));

process.on('uncaughtException', (e) => server.logFailure('uncaught exception', e));
process.on('unhandledRejection', (e) => server.logFailure('unhandled rejection', e));
