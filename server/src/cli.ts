// Entry point of the shipped `connector-manifest` CLI (out/cli.js): the runtime's commands with the
// Airbyte CDK engine injected for `read --engine cdk` and `read --compare-engines`.
import { runCliMain } from './runtime';
import { cdkReadEngine } from './cdkEngine/cdkReadEngine';

runCliMain({ cdk: cdkReadEngine });
