// The shapes of the component catalog (the single source of truth of the manifest format) and the
// small helpers the per-area catalog files use to declare fields tersely. Pure data; no I/O.
import type { TemplateContextKind } from '../interpolation/contextKinds';

/** A JSON value type as named by JSON schema. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** One field of a component. */
export type FieldDef = {
  /** What the field does, in our words (hover, completion, JSON schema). */
  description: string;
  /** Plain JSON types accepted besides the component types of `components`. */
  types?: readonly JsonType[];
  /** For `types: ['array']`: the JSON type of the items (nested lists: use `schema`). */
  items?: JsonType;
  /** Component types the slot accepts (a mapping with one of these `type`s). */
  components?: readonly string[];
  /** The value is a list of components of `components` (or, with `alsoSingle`, a single one). */
  list?: boolean;
  /** With `list`: a single component is accepted too. */
  alsoSingle?: boolean;
  /** The value is a mapping whose values are components of `components` (or `types`). */
  mapOf?: boolean;
  required?: boolean;
  default?: unknown;
  enum?: readonly (string | number | boolean)[];
  /** A short example value, as YAML text. */
  example?: string;
  /** Typical values (the upstream schema's `examples`): offered by value completion where there is no `enum`. */
  examples?: readonly (string | number | boolean)[];
  /** The label the Connector Builder shows for this field, where it has one. */
  label?: string;
  /** Interpolated field: which template context the value is rendered with (§3.6). */
  templateContext?: TemplateContextKind;
  /** Interpolated, but with variables no `TemplateContextKind` describes (named here for hover). */
  templateVariables?: readonly string[];
  /** CDK version that introduced the field, when known. */
  addedIn?: string;
  /** CDK version that removed the field; manifests declaring an older version may still use it. */
  removedIn?: string;
  /** The field still works but has a replacement; the text says which. */
  deprecated?: string;
  /** A raw JSON schema for shapes the terse form cannot express (validated by ajv as is). */
  schema?: Record<string, unknown>;
};

/** The functional area a component belongs to (one catalog file each). */
export type ComponentArea =
  | 'source'
  | 'streams'
  | 'retrievers'
  | 'requester'
  | 'auth'
  | 'pagination'
  | 'selection'
  | 'decoders'
  | 'incremental'
  | 'partitioning'
  | 'error-handling'
  | 'transformations'
  | 'schema-loaders'
  | 'spec'
  | 'dynamic-streams'
  | 'rate-limits'
  | 'state'
  | 'custom';

/** One component type of the manifest format. */
export type ComponentDef = {
  /** The `type` value. */
  type: string;
  area: ComponentArea;
  description: string;
  /** The Connector Builder's name for it, where it has one. */
  label?: string;
  fields: Readonly<Record<string, FieldDef>>;
  /** A mapping without `type` in a slot accepting this component is this component (the format has no or an optional `type` here). */
  typeOptional?: boolean;
  /** Extra fields are part of the contract (custom components pass them to Python code). */
  openFields?: boolean;
  /** A short complete example, as YAML text. */
  example?: string;
  addedIn?: string;
  /** CDK version that removed the component (see `FieldDef.removedIn`). */
  removedIn?: string;
  deprecated?: string;
};

type FieldOptions = Omit<FieldDef, 'description'>;

/** A string field. */
export const str = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['string'], ...o });
/** An integer field (templates allowed when `o.types` says so). */
export const int = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['integer'], ...o });
/** A number field. */
export const num = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['number'], ...o });
/** A boolean field. */
export const bool = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['boolean'], ...o });
/** A free-form mapping. */
export const obj = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['object'], ...o });
/** A list of strings. */
export const strs = (description: string, o: FieldOptions = {}): FieldDef => ({ description, types: ['array'], items: 'string', ...o });
/** A slot holding one component of the given types (plus plain `types` if given). */
export const one = (components: readonly string[], description: string, o: FieldOptions = {}): FieldDef => ({
  description,
  components,
  ...o,
});
/** A slot holding a list of components of the given types. */
export const many = (components: readonly string[], description: string, o: FieldOptions = {}): FieldDef => ({
  description,
  components,
  list: true,
  ...o,
});
/** A field whose shape is given as raw JSON schema. */
export const raw = (schema: Record<string, unknown>, description: string, o: FieldOptions = {}): FieldDef => ({
  description,
  schema,
  ...o,
});
