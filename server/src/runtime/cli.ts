// `connector-manifest` command line over the runtime alone (no CDK engine). The shipped out/cli.js is
// built from server/src/cli.ts, which adds the Airbyte CDK engine (docs/engines.md).
import { runCliMain } from './cli/runCli';

runCliMain();
