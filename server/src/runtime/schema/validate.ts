// Schema validation of a resolved manifest: walks the component tree from the root, picks each
// component's definition by its `type` (so only that branch's errors are reported), runs its ajv
// validator (compiled once per type) and checks slots, unknown fields and removed components.
import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonPath } from '../manifest/origins';
import { isPlainObject } from '../shared/plainObject';
import { AJV_OPTIONS, validatorSchema } from './validatorSchemas';
import { precompiledValidators } from './precompiledValidators';
import { getComponent } from './catalog';
import { findingsFromAjv } from './errors';
import { closestMatch } from '../suggest';
import type { ProblemFix } from '../problems';
import type { ComponentDef, FieldDef } from './types';
import { isOlderThan, parseVersion, type CdkVersion } from './versions';

/** A schema problem before it is located in the text. */
/** A component the walker checked: rules run over this list instead of walking again. */
export type VisitedComponent = { node: Record<string, unknown>; path: JsonPath; type: string };

export type SchemaIssue = {
  code: 'schema' | 'unknown-type' | 'unknown-field' | 'removed-component' | 'removed-field' | 'deprecated';
  severity: 'error' | 'warning' | 'hint';
  message: string;
  /** Resolved path of the node the issue is about. */
  path: JsonPath;
  /** `key`: the mapping key at `path`; `value`: the value; `component`: the best anchor of a whole component. */
  anchor: 'key' | 'value' | 'component';
  fix?: ProblemFix;
};

let ajv: Ajv | undefined;
/** Unknown fields named one by one per component; beyond this one summary warning counts them. */
const MAX_UNKNOWN_FIELDS_NAMED = 200;

const validators = new Map<string, ValidateFunction>(Object.entries(precompiledValidators ?? {}));

/** The validator of a component's own fields: precompiled in the server bundle, else compiled on first use. */
function validatorFor(def: ComponentDef): ValidateFunction {
  let v = validators.get(def.type);
  if (!v) {
    ajv ??= new Ajv(AJV_OPTIONS);
    v = ajv.compile(validatorSchema(def));
    validators.set(def.type, v);
  }
  return v;
}

/**
 * "Did you mean" for an unknown field, memoized per component type and key: a manifest repeating the
 * same unknown keys in hundreds of components (source-opsgenie: 516) computes each suggestion once,
 * not on every validation.
 */
const fieldSuggestions = new WeakMap<ComponentDef, Map<string, string | null>>();
function fieldSuggestion(def: ComponentDef, key: string): string | undefined {
  let known = fieldSuggestions.get(def);
  if (!known) fieldSuggestions.set(def, (known = new Map()));
  let hint = known.get(key);
  if (hint === undefined) {
    // Bounded: keys are the author's text, and a file of random keys must not grow this forever.
    if (known.size > 1000) known.clear();
    hint = closestMatch(key, Object.keys(def.fields)) ?? null;
    known.set(key, hint);
  }
  return hint ?? undefined;
}

/** Validates a resolved manifest. `unresolved` paths (broken references) and everything below are skipped. */
export function validateResolvedManifest(
  root: unknown,
  unresolved: readonly JsonPath[] = [],
): { issues: SchemaIssue[]; components: VisitedComponent[] } {
  const issues: SchemaIssue[] = [];
  const components: VisitedComponent[] = [];
  if (!isPlainObject(root)) {
    issues.push({
      code: 'schema',
      severity: 'error',
      message: 'A manifest must be a mapping with `type: DeclarativeSource`, `version`, `check` and `streams`.',
      path: [],
      anchor: 'value',
    });
    return { issues, components };
  }
  const walker = new Walker(issues, components, parseVersion(root.version), unresolved);
  walker.component(root, [], ['DeclarativeSource'], 'the top level');
  return { issues, components };
}

class Walker {
  constructor(
    private readonly issues: SchemaIssue[],
    private readonly visited: VisitedComponent[],
    private readonly version: CdkVersion | undefined,
    private readonly unresolved: readonly JsonPath[],
  ) {}

  private skipped(path: JsonPath): boolean {
    return this.unresolved.some((u) => u.length <= path.length && u.every((k, i) => k === path[i]));
  }

  private versionText(): string {
    return this.version ? this.version.join('.') : 'none';
  }

  /** Checks one component found at `path` in a slot accepting `allowed` (named `slot` in messages). */
  component(node: Record<string, unknown>, path: JsonPath, allowed: readonly string[], slot: string): void {
    if (this.skipped(path)) return;
    let type = node.type;
    if (type === undefined) {
      // Shapes the format leaves untyped (AuthFlow, Rate, ...) are identified by their slot.
      const implied = allowed.filter((t) => getComponent(t)?.typeOptional);
      if (implied.length === 1) type = implied[0];
    }
    if (typeof type !== 'string') {
      this.issues.push({
        code: 'schema',
        severity: 'error',
        path,
        anchor: 'component',
        message: `Missing \`type\` in ${slot}: expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}.`,
      });
      return;
    }
    const def = getComponent(type);
    if (!def || !allowed.includes(type)) {
      const hint = closestMatch(type, allowed);
      const what = def ? `\`${type}\` is not allowed in ${slot}` : `Unknown component type \`${type}\` in ${slot}`;
      this.issues.push({
        code: 'unknown-type',
        severity: 'error',
        path: [...path, 'type'],
        anchor: 'value',
        message: `${what}. Expected one of: ${allowed.join(', ')}.${hint && hint !== type ? ` Did you mean \`${hint}\`?` : ''}`,
        ...(hint && hint !== type ? { fix: { kind: 'replace', text: hint } } : {}),
      });
      return;
    }
    if (def.removedIn && !this.removal(def.type, def.removedIn, [...path, 'type'], 'removed-component', refusedBy(def.type, allowed, slot)))
      return;
    if (def.deprecated) this.deprecated(def.type, def.deprecated, [...path, 'type'], 'value');
    this.visited.push({ node, path, type: def.type });

    const validate = validatorFor(def);
    if (!validate(node)) {
      for (const f of findingsFromAjv(validate.errors ?? [], def.type, node)) {
        // A value left unresolved by a broken reference is already reported by the resolver.
        if (this.skipped([...path, ...f.path])) continue;
        this.issues.push({
          code: 'schema',
          severity: 'error',
          path: [...path, ...f.path],
          anchor: f.anchor,
          message: f.message,
          ...(f.fix ? { fix: f.fix } : {}),
        });
      }
    }

    const params = isPlainObject(node.$parameters) ? node.$parameters : {};
    let unknown = 0;
    for (const key of Object.keys(node)) {
      if (key === 'type' || key === '$parameters') continue;
      const field = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined;
      if (!field) {
        // Parameters are copied onto every component (§1.3), so their names are not typos.
        if (def.openFields || key in params) continue;
        // A generated or pasted block can hold thousands of stray keys: name the first ones (each with
        // its "did you mean", which costs an edit distance per known field) and count the rest once.
        if (++unknown <= MAX_UNKNOWN_FIELDS_NAMED) this.unknownField(def, key, path);
        continue;
      }
      if (field.removedIn && !this.removal(`${def.type}.${key}`, field.removedIn, [...path, key], 'removed-field')) continue;
      if (field.deprecated) this.deprecated(`${def.type}.${key}`, field.deprecated, [...path, key], 'key');
      if (field.components) this.slot(def, key, field, node[key], [...path, key]);
    }
    if (unknown > MAX_UNKNOWN_FIELDS_NAMED) {
      this.issues.push({
        code: 'unknown-field',
        severity: 'warning',
        path,
        anchor: 'component',
        message: `${def.type} has ${unknown.toLocaleString('en-US')} unknown fields; the first ${MAX_UNKNOWN_FIELDS_NAMED} are marked, the CDK ignores them all.`,
      });
    }
  }

  /** Recurses into the components held by `value` in field `key` of `def`. */
  private slot(def: ComponentDef, key: string, field: FieldDef, value: unknown, path: JsonPath): void {
    const allowed = field.components ?? [];
    const slot = `${def.type}.${key}`;
    if (field.mapOf) {
      if (isPlainObject(value)) {
        for (const k of Object.keys(value)) {
          const v = value[k];
          if (isPlainObject(v)) this.component(v, [...path, k], allowed, slot);
        }
      }
      return;
    }
    if (Array.isArray(value) && field.list) {
      value.forEach((item, i) => {
        if (isPlainObject(item)) this.component(item, [...path, i], allowed, slot);
      });
      return;
    }
    if (isPlainObject(value) && (!field.list || field.alsoSingle || field.schema)) this.component(value, path, allowed, slot);
  }

  /** A hint (shown struck through by editors) on something that still works but has a replacement. */
  private deprecated(what: string, advice: string, path: JsonPath, anchor: 'key' | 'value'): void {
    // A requester's `url_base` and `path` can be merged into one `url` by the editor.
    // `request_body_json` / `request_body_data` become a typed `request_body`, as the CDK's migration does.
    const fix: ProblemFix | undefined =
      what === 'HttpRequester.url_base' || what === 'HttpRequester.path'
        ? { kind: 'merge-url-base-and-path' }
        : what === 'HttpRequester.request_body_json' || what === 'HttpRequester.request_body_data'
          ? { kind: 'migrate-request-body' }
          : undefined;
    this.issues.push({
      code: 'deprecated',
      severity: 'hint',
      path,
      anchor,
      message: `\`${what}\` is deprecated: ${advice}.`,
      ...(fix ? { fix } : {}),
    });
  }

  private unknownField(def: ComponentDef, key: string, path: JsonPath): void {
    const hint = fieldSuggestion(def, key);
    this.issues.push({
      code: 'unknown-field',
      severity: 'warning',
      path: [...path, key],
      anchor: 'key',
      message: `Unknown field \`${key}\` in ${def.type}; the CDK ignores it.${hint ? ` Did you mean \`${hint}\`?` : ''}`,
      ...(hint ? { fix: { kind: 'replace', text: hint } } : {}),
    });
  }

  /**
   * A component or field removed in CDK `removedIn`: a warning when the manifest declares an older
   * version (it still works there), an error otherwise. Returns true when the caller should go on.
   */
  private removal(what: string, removedIn: string, path: JsonPath, code: 'removed-component' | 'removed-field', refused = ''): boolean {
    if (this.version && !isOlderThan(this.version, removedIn)) {
      this.issues.push({
        code,
        severity: 'error',
        path,
        anchor: 'value',
        message: `\`${what}\` was removed in CDK ${removedIn}; this manifest declares version ${this.versionText()}.${refused}`,
      });
      return false;
    }
    this.issues.push({
      code,
      severity: 'warning',
      path,
      anchor: 'value',
      message: `\`${what}\` was removed in CDK ${removedIn}. It is accepted because this manifest ${this.version ? `declares the older version ${this.versionText()}` : 'declares no version'}; upgrading the CDK will break it.${refused}`,
    });
    return true;
  }
}

/**
 * What a CDK without a removed component does with a manifest using it: its schema no longer lists the type
 * in the slot, so the whole manifest is refused, every stream included (the Connector Builder too).
 */
function refusedBy(type: string, allowed: readonly string[], slot: string): string {
  const accepted = allowed.filter((t) => t !== type && !getComponent(t)?.removedIn);
  return ` From that version the reference CDK, and the Connector Builder running it, refuses the whole manifest, every stream included: "Validation against json schema defined in declarative_component_schema.yaml schema failed" ('${type}' is not one of ${accepted.map((t) => `['${t}']`).join(', ')} in ${slot}).`;
}
