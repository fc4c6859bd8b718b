// `npm run demo-api [-- --port N] [--hostile]`: runs the demo API (demo/api/server.ts) until Ctrl+C
// and prints its URL. TypeScript is loaded through tsx, a development dependency.
import { tsImport } from 'tsx/esm/api';

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args[portAt + 1]) : 8787;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('demo-api: --port must be an integer between 0 and 65535');
  process.exit(2);
}
const { startDemoApi } = await tsImport('../demo/api/server.ts', import.meta.url);
const api = await startDemoApi({ port, hostile: args.includes('--hostile') });
console.log(api.url);
console.error(`Demo API listening on ${api.url}${args.includes('--hostile') ? ' (hostile routes on)' : ''}; Ctrl+C stops it.`);
const stop = () => api.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
