// The language server bundle uses standalone validators generated at build time; they must report
// exactly what the validators compiled at run time report, for every component type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { allComponents } from '../../../server/src/runtime/schema/catalog';
import { AJV_OPTIONS, validatorSchema } from '../../../server/src/runtime/schema/validatorSchemas';
import { precompiledValidatorsModule } from '../../../scripts/precompileValidators';

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

function loadGenerated(): Record<string, Validate> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', precompiledValidatorsModule())(module, module.exports, require);
  return module.exports.precompiledValidators as Record<string, Validate>;
}

/** Values that exercise a component's schema: empty, its example, and each field given a value of the wrong kind. */
function samples(type: string, example: string | undefined, fields: string[]): unknown[] {
  const out: unknown[] = [{}, { type }, { type: 'Other' }, 'not a mapping'];
  if (example) {
    try {
      out.push(parse(example));
    } catch {
      // An example that is not a mapping on its own is covered by the other samples.
    }
  }
  for (const f of fields) {
    out.push({ type, [f]: 12345 }, { type, [f]: 'text' }, { type, [f]: [1, 'a'] }, { type, [f]: { nested: true } }, { type, [f]: null });
  }
  return out;
}

test('precompiled validators report the same errors as run-time compiled ones for every component', () => {
  const generated = loadGenerated();
  const ajv = new Ajv(AJV_OPTIONS);
  let compared = 0;
  for (const def of allComponents()) {
    const pre = generated[def.type];
    assert.ok(pre, `no precompiled validator for ${def.type}`);
    const live = ajv.compile(validatorSchema(def)) as Validate;
    for (const value of samples(def.type, def.example, Object.keys(def.fields))) {
      const a = live(value);
      const b = pre(value);
      assert.equal(b, a, `${def.type}: verdict differs for ${JSON.stringify(value)}`);
      assert.deepEqual(JSON.parse(JSON.stringify(pre.errors ?? null)), JSON.parse(JSON.stringify(live.errors ?? null)), `${def.type}: errors differ for ${JSON.stringify(value)}`);
      compared++;
    }
  }
  assert.ok(compared > 1000, `only ${compared} comparisons`);
});
