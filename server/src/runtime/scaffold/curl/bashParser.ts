// The shell parser curlconverter tokenizes a cURL command with, as WebAssembly (web-tree-sitter and
// curlconverter's tree-sitter-bash.wasm) so the bundles need no native addon. esbuild.mjs routes
// curlconverter's own `./Parser.js` here; `loadBashParser` must have run before a command is parsed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import TreeSitter from 'web-tree-sitter';

let parser: TreeSitter | undefined;
let loading: Promise<void> | undefined;

/** Where the two .wasm files are: beside the bundle (out/), else in node_modules (tests from source). */
function wasmFile(name: 'tree-sitter.wasm' | 'tree-sitter-bash.wasm'): string {
  const beside = path.join(__dirname, name);
  if (fs.existsSync(beside)) return beside;
  return require.resolve(name === 'tree-sitter.wasm' ? 'web-tree-sitter/tree-sitter.wasm' : 'curlconverter/dist/tree-sitter-bash.wasm');
}

/** Loads the WebAssembly parser once; later calls wait for the first. Throws when a .wasm file is missing. */
export function loadBashParser(): Promise<void> {
  loading ??= (async () => {
    await TreeSitter.init({
      locateFile: (name: string) => wasmFile(name === 'tree-sitter.wasm' ? 'tree-sitter.wasm' : 'tree-sitter-bash.wasm'),
    });
    const bash = await TreeSitter.Language.load(wasmFile('tree-sitter-bash.wasm'));
    const p = new TreeSitter();
    p.setLanguage(bash);
    parser = p;
  })();
  return loading;
}

/** The parser curlconverter calls (its module's default export). */
const bashParser = {
  parse(text: string): TreeSitter.Tree {
    if (!parser) throw new Error('The shell parser is not loaded yet (loadBashParser).');
    return parser.parse(text);
  },
};
export default bashParser;
