// Pass 2 of manifest resolution: default component types (airbyte_cdk/sources/declarative/parsers/manifest_component_transformer.py) and
// `$parameters` propagation (§1.3), over the reference-free output of pass 1. Builds new containers
// and carries their origins along; never throws.
import { defaultTypeFor } from '../schema/defaultTypes';
import { MAX_DEPTH, MAX_RESOLVED_VALUES, ResolutionTooLarge } from './references';
import { isPlainObject } from '../shared/plainObject';
import { toNodeOrigin, type Origin, type OriginTable } from './origins';
import { setOwn } from '../shared/safeObject';

/** One propagated parameter: its value and where it was written. */
type Param = { value: unknown; origin: Origin };
type Params = Map<string, Param>;

/** Python truthiness, which decides whether a parameter overwrites a field (§1.3 step 4). */
export function isFalsy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** §1.3 step 2: a JSON-schema object (inline schema, connection_specification) is left alone. */
function isJsonSchemaObject(node: Record<string, unknown>): boolean {
  const t = node.type;
  return t === 'object' || (Array.isArray(t) && t.length === 2 && t.includes('object') && t.includes('null'));
}

export class TypeAndParameterPropagator {
  /** Fields written so far: every component gets the parameters it inherits, so many parameters times many components is bounded too. */
  private written = 0;

  constructor(private readonly origins: OriginTable) {}

  /** Processes the whole manifest (its root already has a `type`). */
  propagateRoot(root: unknown): unknown {
    if (!isPlainObject(root)) return root;
    return this.component(root, this.origins.originAt(root, []), undefined, '', new Map(), 0);
  }

  /**
   * Processes mapping `node` found in field `field` of a component of type `parentType`
   * (both undefined at the root or under a plain object), with the inherited parameters.
   */
  private component(
    node: Record<string, unknown>,
    origin: Origin,
    parentType: string | undefined,
    field: string,
    inherited: Params,
    depth: number,
  ): Record<string, unknown> {
    if (depth > MAX_DEPTH) return node;
    const out: Record<string, unknown> = { ...node };
    this.origins.carry(node, out);
    if (!('type' in out)) {
      // Spec §1.2: a `class_name` mapping gets the slot's custom type, any other the slot's default.
      const inserted = defaultTypeFor(parentType, field, 'class_name' in out);
      if (inserted) out.type = inserted;
    }
    if (isJsonSchemaObject(out)) return out;
    if (typeof out.type !== 'string') {
      // Spec §1.3 step 3: not a component; only typed child mappings receive the parameters.
      for (const key of Object.keys(out)) {
        const child = out[key];
        if (isPlainObject(child) && typeof child.type === 'string') {
          setOwn(out, key, this.component(child, this.origins.childOrigin(out, origin, key), undefined, key, inherited, depth + 1));
        }
      }
      return out;
    }

    this.written += Object.keys(out).length + inherited.size;
    if (this.written > 2 * MAX_RESOLVED_VALUES) throw new ResolutionTooLarge('$parameters', toNodeOrigin(origin));
    // Spec §1.3 step 1: the component's own parameters win over inherited ones.
    const params: Params = new Map(inherited);
    const own = out.$parameters;
    if (isPlainObject(own)) {
      const ownOrigin = this.origins.childOrigin(out, origin, '$parameters');
      for (const key of Object.keys(own)) params.set(key, { value: own[key], origin: this.origins.childOrigin(own, ownOrigin, key) });
    }
    delete out.$parameters;

    // Spec §1.3 step 4 (reference quirk): a parameter fills a missing or falsy field.
    for (const [key, p] of params) {
      if (isFalsy(out[key])) {
        setOwn(out, key, p.value);
        this.origins.setKey(out, key, p.origin);
      }
    }

    const type = out.type;
    for (const key of Object.keys(out)) {
      const child = out[key];
      if (!isPlainObject(child) && !Array.isArray(child)) continue;
      // Spec §1.3 step 5: the parameter named like the field does not flow into that field's subtree.
      const excluded = params.get(key);
      if (excluded) params.delete(key);
      const childOrigin = this.origins.childOrigin(out, origin, key);
      if (isPlainObject(child)) {
        setOwn(out, key, this.component(child, childOrigin, type, key, params, depth + 1));
      } else {
        const list = child.map((item, i) =>
          isPlainObject(item) ? this.component(item, this.origins.childOrigin(child, childOrigin, i), type, key, params, depth + 1) : item,
        );
        this.origins.carry(child, list);
        setOwn(out, key, list);
      }
      if (excluded) params.set(key, excluded);
    }

    // Spec §1.3 step 6: the merged parameter set is kept on the component.
    if (params.size > 0) {
      const stored: Record<string, unknown> = {};
      for (const [key, p] of params) {
        setOwn(stored, key, p.value);
        this.origins.setKey(stored, key, p.origin);
      }
      const ownOrigin = isPlainObject(own) ? this.origins.childOrigin(node, origin, '$parameters') : origin;
      this.origins.setContainer(stored, ownOrigin);
      out.$parameters = stored;
    }
    return out;
  }
}
