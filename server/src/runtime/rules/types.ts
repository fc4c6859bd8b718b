// The contract of a semantic rule: a pure function over the checked components of a resolved
// manifest, returning findings with a stable kebab-case code. Rules never throw.
import type { JsonPath } from '../manifest/origins';
import type { Severity } from '../problems';
import type { VisitedComponent } from '../schema/validate';
import type { CdkVersion } from '../schema/versions';

export type RuleContext = {
  /** The resolved manifest. */
  root: Record<string, unknown>;
  /** Every component the schema walker checked (known type, allowed in its slot), in document order. */
  components: readonly VisitedComponent[];
  version: CdkVersion | undefined;
};

export type RuleFinding = {
  code: string;
  severity: Severity;
  message: string;
  /** Resolved path of the node the finding is about. */
  path: JsonPath;
  /** `key`: underline the mapping key at `path`; `value`: the value; `component`: the component's key. */
  anchor: 'key' | 'value' | 'component';
  /** Other places worth showing, as resolved paths with a message. */
  related?: { message: string; path: JsonPath }[];
};

export type Rule = {
  /** The stable code of the findings (also the file name, camel-cased). */
  code: string;
  check(ctx: RuleContext): RuleFinding[];
};

export function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The component at `path` below `node` when it is a typed mapping. */
export function componentAt(node: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = node[key];
  return isMapping(v) && typeof v.type === 'string' ? v : undefined;
}
