// Diagnostics inside templates, located on the exact characters: syntax errors, unknown filters and
// tests, variables not available in the field (any `stream_state` is an error), `last_records`
// (Builder-only), and config keys not declared in spec.connection_specification (with did-you-mean).
import { closestMatch } from '../suggest';
import type { Problem } from '../problems';
import { compileTemplate, GLOBAL_NAMES } from '../interpolation/jinja';
import { TemplateSyntaxError } from '../interpolation/lexer';
import { variablesOf } from '../interpolation/variables';
import type { FoundTemplate } from './templateFields';
import { undeclaredConfigKey, type ConfigSpec } from './templateConfigKeys';

/** Diagnostic codes of template rules. */
export const TEMPLATE_CODES = {
  syntax: 'template-syntax',
  notAvailable: 'template-variable-not-available',
  streamState: 'template-stream-state',
  lastRecords: 'template-last-records',
  configKey: 'template-undeclared-config-key',
} as const;

function span(t: Pick<FoundTemplate, 'offsets'>, start: number, end: number): { start: number; end: number } {
  const s = t.offsets[Math.min(Math.max(start, 0), t.offsets.length - 1)];
  const e = t.offsets[Math.min(Math.max(end, start), t.offsets.length - 1)];
  return { start: s, end: Math.max(e, s + 1) };
}

/** What a kind of template may use, worked out once per kind: a document can hold many thousands of uses. */
type KindFacts = { names: Set<string>; list: string; candidates: string[]; closest: Map<string, string | undefined> };
const KIND_FACTS = new Map<string, KindFacts>();
/** Did-you-mean answers kept per kind; past this many the cache starts again (memory stays bounded). */
const MAX_CLOSEST = 10_000;

/**
 * Did-you-mean searches per document (one `checks` budget shared by its templates): past this many
 * undefined names the rest are reported without a suggestion, so a document with 150,000 of them
 * costs time linear in its size. The editor lists at most 1,000 diagnostics anyway.
 */
export const MAX_SUGGESTIONS = 2_000;

/** What the template checks of one document may still spend. */
export type CheckBudget = { suggestions: number };

function kindFacts(kind: FoundTemplate['kind']): KindFacts {
  let facts = KIND_FACTS.get(kind);
  if (!facts) {
    const available = variablesOf(kind);
    const names = new Set(available.map((v) => v.name));
    facts = {
      names,
      list: [...names].filter((n) => !available.find((v) => v.name === n)?.deprecated).join(', '),
      candidates: [...names, ...GLOBAL_NAMES],
      closest: new Map(),
    };
    KIND_FACTS.set(kind, facts);
  }
  return facts;
}

function closestName(facts: KindFacts, name: string, budget: CheckBudget): string | undefined {
  if (facts.closest.has(name)) return facts.closest.get(name);
  if (budget.suggestions <= 0) return undefined;
  budget.suggestions--;
  const hint = closestMatch(name, facts.candidates);
  const close = hint && hint !== name ? hint : undefined;
  if (facts.closest.size >= MAX_CLOSEST) facts.closest.clear();
  facts.closest.set(name, close);
  return close;
}

/** Problems of one template. `spec` is the connection specification, or null when the manifest has none. */
export function checkTemplate(
  t: FoundTemplate,
  spec: ConfigSpec | null,
  budget: CheckBudget = { suggestions: MAX_SUGGESTIONS },
): Problem[] {
  return templateFindings(t, spec, budget).map((f) => locateFinding(t, f));
}

/** A problem of a template, located by character indexes into the template text. */
export type TemplateFinding = Omit<Problem, 'span'> & { at: { start: number; end: number } };

/** A finding placed on the document characters of template `t`. */
export function locateFinding(t: Pick<FoundTemplate, 'offsets'>, f: TemplateFinding): Problem {
  const problem: Problem = { code: f.code, severity: f.severity, message: f.message, span: span(t, f.at.start, f.at.end) };
  if (f.fix) problem.fix = f.fix;
  return problem;
}

/**
 * The findings of one template: they depend on its text, kind, component and field and on the spec
 * only (never on where it is written), so the template rules can keep them per template text.
 */
export function templateFindings(
  t: Pick<FoundTemplate, 'text' | 'kind' | 'component' | 'field'>,
  spec: ConfigSpec | null,
  budget: CheckBudget = { suggestions: MAX_SUGGESTIONS },
): TemplateFinding[] {
  const problems: TemplateFinding[] = [];
  const stateAt = t.text.indexOf('stream_state');
  if (stateAt >= 0) {
    // Spec §3.2 step 3: the substring anywhere makes the reference reject the template.
    problems.push({
      code: TEMPLATE_CODES.streamState,
      severity: 'error',
      message: 'stream_state is no longer supported in templates: use stream_interval (or stream_slice) instead.',
      at: { start: stateAt, end: stateAt + 'stream_state'.length },
    });
  }
  let compiled;
  try {
    compiled = compileTemplate(t.text);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      problems.push({
        code: TEMPLATE_CODES.syntax,
        severity: 'error',
        message: `Template syntax error: ${e.message}`,
        at: { start: e.start, end: e.end },
        ...(e.suggestion ? { fix: { kind: 'replace', text: e.suggestion } } : {}),
      });
      return problems;
    }
    throw e;
  }
  const available = variablesOf(t.kind);
  const facts = kindFacts(t.kind);
  const names = facts.names;
  for (const use of compiled.facts.undeclared) {
    if (GLOBAL_NAMES.has(use.name) || use.name === 'stream_state') continue;
    const deprecated = available.find((v) => v.name === use.name && v.deprecated);
    if (deprecated) {
      problems.push({
        code: TEMPLATE_CODES.lastRecords,
        severity: 'warning',
        message: `${use.name} works in the Connector Builder but the Python CDK rejects it: ${deprecated.deprecated}`,
        at: { start: use.start, end: use.end },
      });
      continue;
    }
    if (!names.has(use.name)) {
      const list = facts.list;
      const close = closestName(facts, use.name, budget);
      const suggestion = close ? ` Did you mean \`${close}\`?` : '';
      problems.push({
        code: TEMPLATE_CODES.notAvailable,
        severity: 'error',
        message: `'${use.name}' is not available in ${t.component}.${t.field}; available here: ${list}.${suggestion}`,
        at: { start: use.start, end: use.end },
        ...(close ? { fix: { kind: 'replace', text: close } } : {}),
      });
    }
  }
  if (spec && names.has('config') && t.kind !== 'response_predicate') {
    for (const access of compiled.facts.configAccesses) {
      const finding = undeclaredConfigKey(spec, access.path, access.tolerant);
      if (finding)
        problems.push({
          code: TEMPLATE_CODES.configKey,
          severity: finding.severity,
          message: finding.message,
          at: { start: access.start, end: access.end },
        });
    }
  }
  return problems;
}
