// Dynamic streams (airbyte_cdk/sources/declarative/resolvers/): each `dynamic_streams` definition expands its
// stream_template once per item its components resolver finds — records read from an API
// (HttpComponentsResolver), entries of a config list (ConfigComponentsResolver) or a list written in
// the manifest (ParametrizedComponentsResolver). The resolved streams are appended to the static ones,
// so a test read can target one by its resolved name.
import { parse as parseYaml } from 'yaml';
import { configError, RuntimeError, systemError } from '../errors';
import { evalBoolean } from '../http/interpolatedValues';
import { evalString as evalInterpolatedString, type LiteralType } from '../interpolation';
import { OriginTable } from '../manifest/origins';
import { TypeAndParameterPropagator } from '../manifest/propagate';
import { templateSlice } from '../records/streamSlice';
import { dpathGet, dpathNew, dpathSet } from './dpath';
import type { ReadContext } from './readContext';
import { buildStream } from './retriever';

type Obj = Record<string, unknown>;

/** One stream produced by a dynamic definition. */
export type ResolvedDynamicStream = {
  name: string;
  /** The definition's `name`, or `dynamic_stream_<index>` (the reference's dynamic_stream_name). */
  definition: string;
  /** The resolver type that produced it. */
  resolver: string;
  stream: Obj;
};

/** The value types a ComponentMappingDefinition may ask for, as the reference maps them. */
const VALUE_TYPES: Record<string, LiteralType[]> = { string: ['str'], number: ['float'], integer: ['int'], boolean: ['bool'] };

type Mapping = { fieldPath: unknown[]; value: string; validTypes?: LiteralType[]; createOrUpdate: boolean; condition: unknown };

/**
 * Resolves every dynamic definition of the resolved manifest `root`, in order. HTTP resolvers read
 * their retriever within the read's page limit; their exchanges belong to the definition, not to the
 * stream being read, so (like the reference's grouper) they are not reported. Throws RuntimeError.
 */
export async function resolveDynamicStreams(root: Obj, rc: ReadContext): Promise<ResolvedDynamicStream[]> {
  const definitions = Array.isArray(root.dynamic_streams) ? (root.dynamic_streams as unknown[]) : [];
  const out: ResolvedDynamicStream[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < definitions.length; index++) {
    const definition = definitions[index] as Obj;
    if (!definition || typeof definition !== 'object') continue;
    const definitionName = typeof definition.name === 'string' && definition.name ? definition.name : `dynamic_stream_${index}`;
    const resolver = definition.components_resolver as Obj | undefined;
    if (!resolver || typeof resolver !== 'object')
      throw configError(`Missing 'components_resolver' in dynamic definition '${definitionName}'.`);
    const template = definition.stream_template as Obj | undefined;
    if (!template || typeof template !== 'object') throw configError(`Dynamic definition '${definitionName}' has no stream_template.`);
    let produced: Obj[];
    try {
      produced = await resolveDefinition(resolver, template, definition, rc);
    } catch (e) {
      if (e instanceof RuntimeError) {
        throw new RuntimeError(
          `Resolving the dynamic streams of '${definitionName}' (${String(resolver.type)}) failed: ${e.message}`,
          e.failureType,
          { cause: e, ...(e.status !== undefined ? { status: e.status } : {}) },
        );
      }
      throw e;
    }
    for (const raw of produced) {
      if (!('type' in raw)) raw.type = 'DeclarativeStream';
      const stream = new TypeAndParameterPropagator(new OriginTable()).propagateRoot(raw) as Obj;
      const name = stream.name;
      if (typeof name !== 'string') {
        throw configError(
          `Expected stream name ${JSON.stringify(name ?? null)} to be a string, got ${name === undefined || name === null ? "<class 'NoneType'>" : `<class '${typeof name === 'number' ? 'int' : typeof name}'>`}. (Dynamic definition '${definitionName}': its components_mapping must set the template's \`name\`.)`,
        );
      }
      if (seen.has(name)) {
        // The reference words it per resolver type: the config is the user's to fix, anything else is not.
        if (resolver.type === 'ConfigComponentsResolver')
          throw configError(`Dynamic streams list contains a duplicate name: ${name}. Please check your configuration.`);
        throw systemError(
          `Dynamic streams list contains a duplicate name: ${name}. Please contact Airbyte Support. (Two items of '${definitionName}' resolve to the same stream name.)`,
        );
      }
      seen.add(name);
      out.push({ name, definition: definitionName, resolver: String(resolver.type), stream });
    }
  }
  return out;
}

async function resolveDefinition(resolver: Obj, template: Obj, definition: Obj, rc: ReadContext): Promise<Obj[]> {
  const parameters = (resolver.$parameters as Obj) ?? {};
  const mappings = mappingsOf(resolver);
  switch (resolver.type) {
    case 'HttpComponentsResolver': {
      if (mappings.some((m) => m.condition !== undefined && m.condition !== null))
        throw configError('`condition` is only supported for     `ConfigComponentsResolver`');
      const retriever = resolver.retriever as Obj | undefined;
      if (!retriever || typeof retriever !== 'object') throw configError('HttpComponentsResolver requires a retriever.');
      const name = typeof definition.name === 'string' && definition.name ? definition.name : '__http_components_resolver';
      // The resolver's requests are not part of the stream read's output (the grouper drops them).
      // Its retriever is used on its own, so its records may be any JSON value (a list of names).
      const quiet: ReadContext = { ...rc, aux: () => {}, recordsOfStream: false };
      const built = buildStream({ type: 'DeclarativeStream', name, retriever }, quiet);
      const out: Obj[] = [];
      for await (const slice of built.slicer.slices()) {
        for await (const page of built.readSlice(slice, () => {})) {
          if (page.error) throw page.error;
          for (const record of page.records) {
            const values = record as Obj;
            const ctx = {
              config: rc.config,
              parameters,
              components_values: values,
              stream_slice: templateSlice(slice),
              stream_template_config: template,
            };
            const updated = structuredClone(template);
            // HttpComponentsResolver writes only into paths the template already has.
            for (const m of mappings) dpathSet(updated, renderPath(m, ctx, rc), renderValue(m, ctx, rc));
            out.push(updated);
          }
        }
      }
      return out;
    }
    case 'ConfigComponentsResolver':
      return fromItems(configItems(resolver, parameters, rc), mappings, template, parameters, rc, true);
    case 'ParametrizedComponentsResolver': {
      const list = (resolver.stream_parameters as Obj | undefined)?.list_of_parameters_for_stream;
      if (!Array.isArray(list))
        throw configError('ParametrizedComponentsResolver requires stream_parameters.list_of_parameters_for_stream (a list).');
      return fromItems(list as Obj[], mappings, template, parameters, rc, false);
    }
    case 'CustomComponentsResolver':
      throw configError('A custom components resolver runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(
        `Invalid components resolver type '${String(resolver.type)}'. Expected one of ['HttpComponentsResolver', 'ConfigComponentsResolver', 'ParametrizedComponentsResolver'].`,
      );
  }
}

function mappingsOf(resolver: Obj): Mapping[] {
  const list = Array.isArray(resolver.components_mapping) ? (resolver.components_mapping as Obj[]) : [];
  return list.map((m) => {
    if (typeof m.value !== 'string')
      throw configError(`Expected a string or InterpolatedString for value in mapping: ${JSON.stringify(m)}`);
    if (!Array.isArray(m.field_path))
      throw configError(`ComponentMappingDefinition.field_path must be a list; got ${JSON.stringify(m.field_path)}.`);
    const validTypes = typeof m.value_type === 'string' ? VALUE_TYPES[m.value_type] : undefined;
    return {
      fieldPath: m.field_path,
      value: m.value,
      ...(validTypes ? { validTypes } : {}),
      createOrUpdate: m.create_or_update === true,
      condition: m.condition,
    };
  });
}

/** Each field_path segment is an interpolated string (its literal-evaluated result, as text). */
function renderPath(m: Mapping, ctx: Obj, rc: ReadContext): string[] {
  return m.fieldPath.map((segment) =>
    typeof segment === 'string' ? pythonKey(evalInterpolatedString(segment, ctx, {}, rc.env)) : String(segment),
  );
}

function pythonKey(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function renderValue(m: Mapping, ctx: Obj, rc: ReadContext): unknown {
  return evalInterpolatedString(m.value, ctx, m.validTypes ? { validTypes: m.validTypes } : {}, rc.env);
}

/** Config and parametrized resolvers: conditions, YAML-parsed values, and `create_or_update`. */
function fromItems(items: Obj[], mappings: Mapping[], template: Obj, parameters: Obj, rc: ReadContext, withConditions: boolean): Obj[] {
  return items.map((values) => {
    const updated = structuredClone(template);
    const ctx = { config: rc.config, parameters, components_values: values, stream_template_config: template };
    for (const m of mappings) {
      if (
        withConditions &&
        m.condition !== undefined &&
        m.condition !== null &&
        m.condition !== '' &&
        !evalBoolean(m.condition, ctx, rc.env)
      )
        continue;
      const value = renderValue(m, ctx, rc);
      // Strings are YAML-parsed ("[a, b]" becomes a list) unless the mapping asks for a string.
      const parsed = typeof value === 'string' && !(withConditions && m.validTypes?.[0] === 'str') ? yamlIfPossible(value) : value;
      const path = renderPath(m, ctx, rc);
      const written = dpathSet(updated, path, parsed);
      if (truthy(parsed) && written === 0 && m.createOrUpdate) dpathNew(updated, path, parsed, 'ComponentMappingDefinition field_path');
    }
    return updated;
  });
}

/** ConfigComponentsResolver's items: the product of its stream_configs' lists (with default_values), merged. */
function configItems(resolver: Obj, parameters: Obj, rc: ReadContext): Obj[] {
  const configs = Array.isArray(resolver.stream_config)
    ? (resolver.stream_config as Obj[])
    : resolver.stream_config
      ? [resolver.stream_config as Obj]
      : [];
  const lists = configs.map((sc) => {
    const pointer = Array.isArray(sc.configs_pointer) ? sc.configs_pointer : [];
    const path = pointer.map((p) =>
      typeof p === 'string'
        ? pythonKey(evalInterpolatedString(p, { config: rc.config, parameters: (sc.$parameters as Obj) ?? parameters }, {}, rc.env))
        : String(p),
    );
    const found = dpathGet(rc.config, path, []);
    const items = Array.isArray(found) ? [...found] : [found];
    if (Array.isArray(sc.default_values)) items.push(...sc.default_values);
    return items;
  });
  if (lists.length === 0) return [];
  const out: Obj[] = [];
  const index = lists.map(() => 0);
  if (lists.some((l) => l.length === 0)) return [];
  for (;;) {
    const merged: Obj = {};
    lists.forEach((list, i) => {
      const elem = list[index[i]];
      // Non-mapping items are kept under an artificial name, as (index, item).
      if (elem !== null && typeof elem === 'object' && !Array.isArray(elem)) Object.assign(merged, elem);
      else if (!(`source_config_${i}` in merged)) merged[`source_config_${i}`] = [index[i], elem];
    });
    out.push(merged);
    let k = lists.length - 1;
    while (k >= 0 && ++index[k] >= lists[k].length) index[k--] = 0;
    if (k < 0) return out;
  }
}

/** yaml.safe_load of a string value when it parses; the string itself otherwise. */
function yamlIfPossible(value: string): unknown {
  // PyYAML refuses these with a scanner error the reference catches: a `%` directive ("%Y-%m-%d") or a tab.
  if (value.startsWith('%') || /^\t/.test(value)) return value;
  try {
    return parseYaml(value, { version: '1.1', logLevel: 'silent' }) ?? null;
  } catch {
    return value;
  }
}

function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}
