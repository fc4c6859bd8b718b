// Generates standalone ajv code for every catalog component's validator (the same schema and options
// as run-time compilation, validatorSchemas.ts). esbuild.mjs bundles this file, calls it, and serves the
// result in place of server/src/runtime/schema/precompiledValidators.ts in out/server.js: compiling the
// 120-odd validators took ~200 ms of the first open of a large manifest.
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { allComponents } from '../server/src/runtime/schema/catalog';
import { AJV_OPTIONS, validatorSchema } from '../server/src/runtime/schema/validatorSchemas';

/** CommonJS source exporting `precompiledValidators`, an object of validate functions keyed by component type. */
export function precompiledValidatorsModule(): string {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: false, optimize: true } });
  const exportsByName: Record<string, string> = {};
  allComponents().forEach((def, i) => {
    const id = `component:${def.type}`;
    ajv.addSchema(validatorSchema(def), id);
    exportsByName[`v${i}`] = id;
  });
  const code = standaloneCode(ajv, exportsByName);
  const mapping = allComponents()
    .map((def, i) => `${JSON.stringify(def.type)}: exports.v${i}`)
    .join(',\n  ');
  return `${code}\nexports.precompiledValidators = {\n  ${mapping}\n};\n`;
}
