// Record transformations that real manifests use most (AddFields, RemoveFields, KeysToLower, KeysReplace,
// DpathFlattenFields), applied
// in place per record inside the record selector (§8.4). Others fail at build time with a clear error.
import type { RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalBoolean, evalString, pythonStr } from '../http/interpolatedValues';
import { templateSlice, type StreamSlice } from './streamSlice';
import { setOwn } from '../shared/safeObject';
import { setAtPath } from '../safePath';

/** Mutates one record. */
export type Transformation = (record: Record<string, unknown>, slice: StreamSlice) => void;

/** Builds the transformations list of a stream. */
export function createTransformations(list: unknown, config: object, parameters: object, env?: RuntimeEnv): Transformation[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw configError('transformations must be a list.');
  return list.map((t) => createTransformation(t as Record<string, unknown>, config, parameters, env));
}

function createTransformation(t: Record<string, unknown>, config: object, parameters: object, env?: RuntimeEnv): Transformation {
  const params = (t.$parameters as object) ?? parameters;
  switch (t.type) {
    case 'AddFields': {
      const fields = (t.fields as Record<string, unknown>[]) ?? [];
      const condition = t.condition;
      return (record, slice) => {
        const ctx = { config, parameters: params, record, stream_slice: templateSlice(slice) };
        if (typeof condition === 'string' && condition !== '' && !evalBoolean(condition, ctx, env)) return;
        for (const f of fields) {
          const path = ((f.path as unknown[]) ?? []).map(String);
          if (path.length === 0) throw configError('AddedFieldDefinition.path must not be empty.');
          const value = castValue(evalString(f.value, ctx, env), f.value_type as string | undefined);
          setAtPath(record, path, value, 'AddFields path');
        }
      };
    }
    case 'RemoveFields': {
      const pointers = ((t.field_pointers as unknown[][]) ?? []).map((p) => p.map(String));
      const condition = t.condition;
      return (record, slice) => {
        for (const p of pointers)
          removePath(record, p, (value) => {
            if (typeof condition !== 'string' || condition === '') return true;
            return evalBoolean(condition, { config, parameters: params, property: value, record, stream_slice: templateSlice(slice) }, env);
          });
      };
    }
    case 'KeysToLower':
      return (record) => {
        for (const k of Object.keys(record)) {
          const lower = k.toLowerCase();
          if (lower !== k) {
            setOwn(record, lower, record[k]);
            delete record[k];
          }
        }
      };
    case 'KeysReplace': {
      // Every key (nested mappings included) gets `old` replaced by `new`; both are templates.
      return (record, slice) => {
        const ctx = { config, parameters: params, record, stream_slice: templateSlice(slice) };
        const from = pythonStr(evalString(t.old, ctx, env));
        const to = pythonStr(evalString(t.new, ctx, env));
        const replaced = replaceKeys(record, from, to);
        for (const k of Object.keys(record)) delete record[k];
        assignOwn(record, replaced);
      };
    }
    case 'DpathFlattenFields': {
      // The mapping at field_path is merged into the record's top level, unless one of its keys already exists there.
      const fieldPath = ((t.field_path as unknown[]) ?? []).map((p) => pythonStr(evalString(p, { config, parameters: params }, env)));
      const keyTransformation = t.key_transformation as { prefix?: string; suffix?: string } | undefined;
      return (record) => {
        let extracted: unknown = record;
        for (const seg of fieldPath) {
          extracted =
            extracted !== null && typeof extracted === 'object' && !Array.isArray(extracted) && Object.hasOwn(extracted, seg)
              ? (extracted as Record<string, unknown>)[seg]
              : undefined;
        }
        if (extracted === null || typeof extracted !== 'object' || Array.isArray(extracted)) return;
        let fields = extracted as Record<string, unknown>;
        if (keyTransformation?.prefix)
          fields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${keyTransformation.prefix}${k}`, v]));
        if (keyTransformation?.suffix)
          fields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${k}${keyTransformation.suffix}`, v]));
        if (t.replace_record === true && Object.keys(fields).length) {
          for (const k of Object.keys(record)) delete record[k];
          assignOwn(record, fields);
          return;
        }
        if (Object.keys(fields).some((k) => Object.hasOwn(record, k))) return;
        if (t.delete_origin_value === true) removePath(record, fieldPath, () => true);
        assignOwn(record, fields);
      };
    }
    case 'CustomTransformation':
      throw configError('CustomTransformation runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(
        `Transformation ${JSON.stringify(t.type)} is not supported by this runtime (supported: AddFields, RemoveFields, KeysToLower, KeysReplace, DpathFlattenFields).`,
      );
  }
}

function castValue(v: unknown, type: string | undefined): unknown {
  switch (type) {
    case 'string':
      return pythonStr(v);
    case 'integer': {
      const n = Number(v);
      return Number.isFinite(n) ? Math.trunc(n) : v;
    }
    case 'number': {
      const n = Number(v);
      return Number.isFinite(n) ? n : v;
    }
    case 'boolean':
      return typeof v === 'string' ? v.toLowerCase() === 'true' : Boolean(v);
    default:
      return v;
  }
}

/** Deletes matching paths; `*` matches any key or index. */
function removePath(node: unknown, path: string[], allowed: (v: unknown) => boolean): void {
  if (path.length === 0 || node === null || typeof node !== 'object') return;
  const [seg, ...rest] = path;
  const container = node as Record<string, unknown>;
  const keys = seg === '*' ? Object.keys(container) : Object.hasOwn(container, seg) ? [seg] : [];
  for (const k of keys) {
    if (rest.length === 0) {
      if (allowed(container[k])) {
        if (Array.isArray(container)) (container as unknown[]).splice(Number(k), 1);
        else delete container[k];
      }
    } else removePath(container[k], rest, allowed);
  }
}

/** Object.assign that stores a `__proto__` key as data instead of replacing the record's prototype. */
function assignOwn(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(source)) setOwn(target, k, source[k]);
}

function replaceKeys(data: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const updated = from === '' ? key : key.split(from).join(to);
    setOwn(
      out,
      updated,
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? replaceKeys(value as Record<string, unknown>, from, to)
        : value,
    );
  }
  return out;
}
