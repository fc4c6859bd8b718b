// The component catalog: the single source of truth of the manifest format. Per-area files under
// components/ declare every component type; this module indexes them once and answers queries.
// The JSON schema (jsonSchema.ts), validation, hover, completion and template contexts all read it.
//
// Query API (all lookups are O(1) after the first call; nothing here throws):
//   getComponent(type)                     → ComponentDef | undefined
//   allComponents()                        → every ComponentDef
//   fieldInfo(type, field)                 → FieldDef | undefined
//   componentTypesForSlot(parentType, field) → component types allowed in `parentType.field` ([] if none)
//   defaultTypeFor(parentType, field, hasClassName?) → type inserted when the mapping has no `type` (§1.2)
//   requiredFields(type)                   → names of required fields, in declaration order
//   templateContextFor(type, field)        → TemplateContextKind of an interpolated field, or undefined
//   slotsAccepting(type)                   → every `Parent.field` slot that accepts `type`
import type { TemplateContextKind } from '../interpolation/contextKinds';
import { ALL_COMPONENTS } from './components';
import type { ComponentDef, FieldDef } from './types';

export { defaultTypeFor, DEFAULT_TYPES, CUSTOM_DEFAULT_TYPES } from './defaultTypes';
export type { ComponentDef, FieldDef, JsonType, ComponentArea } from './types';

let byType: Map<string, ComponentDef> | null = null;
let bySlotTarget: Map<string, string[]> | null = null;

function index(): Map<string, ComponentDef> {
  if (!byType) {
    byType = new Map();
    for (const c of ALL_COMPONENTS) byType.set(c.type, c);
  }
  return byType;
}

/** The component named `type`, or undefined for an unknown type. */
export function getComponent(type: string): ComponentDef | undefined {
  return index().get(type);
}

/** Every component of the catalog. */
export function allComponents(): readonly ComponentDef[] {
  return ALL_COMPONENTS;
}

/** The definition of `field` on component `type`, or undefined. */
export function fieldInfo(type: string, field: string): FieldDef | undefined {
  const c = getComponent(type);
  return c && Object.hasOwn(c.fields, field) ? c.fields[field] : undefined;
}

/** Component types allowed in `parentType.field` (empty when the field holds no component). */
export function componentTypesForSlot(parentType: string, field: string): readonly string[] {
  return fieldInfo(parentType, field)?.components ?? [];
}

/** Names of the required fields of `type`, in declaration order. */
export function requiredFields(type: string): string[] {
  const c = getComponent(type);
  return c ? Object.keys(c.fields).filter((k) => c.fields[k].required) : [];
}

/** The template context of an interpolated field, or undefined when the field is not a template. */
export function templateContextFor(type: string, field: string): TemplateContextKind | undefined {
  return fieldInfo(type, field)?.templateContext;
}

/** Every `Parent.field` slot that accepts component `type`. */
export function slotsAccepting(type: string): readonly string[] {
  if (!bySlotTarget) {
    bySlotTarget = new Map();
    for (const c of ALL_COMPONENTS) {
      for (const [name, f] of Object.entries(c.fields)) {
        for (const t of f.components ?? []) {
          const list = bySlotTarget.get(t) ?? [];
          list.push(`${c.type}.${name}`);
          bySlotTarget.set(t, list);
        }
      }
    }
  }
  return bySlotTarget.get(type) ?? [];
}
