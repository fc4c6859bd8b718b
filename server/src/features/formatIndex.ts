// An index over the component catalog (the single source of truth of the manifest format), built
// once per process: components by type, fields in completion order, default types per slot.
// Completion and hover read only this; they never describe the format themselves.

import type { ComponentDef, FieldDef } from '../runtime';

/** The part of a catalog field definition the editor features read (derived, never restated). */
export type FieldInfo = Pick<
  FieldDef,
  | 'description'
  | 'types'
  | 'components'
  | 'list'
  | 'alsoSingle'
  | 'mapOf'
  | 'required'
  | 'default'
  | 'enum'
  | 'example'
  | 'examples'
  | 'schema'
  | 'label'
  | 'deprecated'
  | 'removedIn'
>;

/** The part of a catalog component definition the editor features read. */
export type ComponentInfo = Pick<ComponentDef, 'type' | 'description' | 'label' | 'example' | 'deprecated' | 'removedIn'> & {
  area?: ComponentDef['area'];
  fields: Readonly<Record<string, FieldInfo>>;
};

/** A field with its name, as listed for completion (required fields first, then catalog order). */
export type NamedField = { name: string; info: FieldInfo };

/** Finds the type inserted for a mapping without `type` in slot `parentType.field` (Spec §1.2). */
export type DefaultTypeLookup = (parentType: string, field: string, hasClassName: boolean) => string | undefined;

/** Read-only lookups over the catalog. */
export class FormatIndex {
  private readonly byType = new Map<string, ComponentInfo>();
  private readonly ordered = new Map<string, NamedField[]>();

  constructor(
    components: Iterable<ComponentInfo>,
    private readonly defaultTypeLookup: DefaultTypeLookup,
  ) {
    for (const c of components) {
      this.byType.set(c.type, c);
      const fields = Object.entries(c.fields).map(([name, info]) => ({ name, info }));
      // Stable sort keeps the catalog's order within the required and optional groups.
      fields.sort((a, b) => Number(!!b.info.required) - Number(!!a.info.required));
      this.ordered.set(c.type, fields);
    }
  }

  /** The component of `type`, or undefined for an unknown type. */
  component(type: string | undefined): ComponentInfo | undefined {
    return type === undefined ? undefined : this.byType.get(type);
  }

  /** The fields of `type`, required first; empty for an unknown type. */
  fields(type: string | undefined): readonly NamedField[] {
    return (type !== undefined && this.ordered.get(type)) || [];
  }

  /** The field `name` of `type`, or undefined. */
  field(type: string | undefined, name: string): FieldInfo | undefined {
    const c = this.component(type);
    return c && Object.hasOwn(c.fields, name) ? c.fields[name] : undefined;
  }

  /** The default type of slot `parentType.field` (Spec §1.2), or undefined when the slot has none. */
  defaultType(parentType: string, field: string, hasClassName: boolean): string | undefined {
    return this.defaultTypeLookup(parentType, field, hasClassName);
  }

  /** Every component type, in catalog order. */
  allTypes(): string[] {
    return [...this.byType.keys()];
  }
}
