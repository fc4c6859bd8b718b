// Diagnostics inside templates, located on the exact characters: syntax errors, unknown filters and
// tests, variables not available in the field (any `stream_state` is an error), `last_records`
// (Builder-only), and config keys not declared in spec.connection_specification (with did-you-mean).
import { closestMatch } from '../schema/suggest';
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

function span(t: FoundTemplate, start: number, end: number): { start: number; end: number } {
  const s = t.offsets[Math.min(Math.max(start, 0), t.offsets.length - 1)];
  const e = t.offsets[Math.min(Math.max(end, start), t.offsets.length - 1)];
  return { start: s, end: Math.max(e, s + 1) };
}

/** Problems of one template. `spec` is the connection specification, or null when the manifest has none. */
export function checkTemplate(t: FoundTemplate, spec: ConfigSpec | null): Problem[] {
  const problems: Problem[] = [];
  const stateAt = t.text.indexOf('stream_state');
  if (stateAt >= 0) {
    // Spec §3.2 step 3: the substring anywhere makes the reference reject the template.
    problems.push({ code: TEMPLATE_CODES.streamState, severity: 'error', message: 'stream_state is no longer supported in templates: use stream_interval (or stream_slice) instead.', span: span(t, stateAt, stateAt + 'stream_state'.length) });
  }
  let compiled;
  try {
    compiled = compileTemplate(t.text);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      problems.push({ code: TEMPLATE_CODES.syntax, severity: 'error', message: `Template syntax error: ${e.message}`, span: span(t, e.start, e.end), ...(e.suggestion ? { fix: { kind: 'replace', text: e.suggestion } } : {}) });
      return problems;
    }
    throw e;
  }
  const available = variablesOf(t.kind);
  const names = new Set(available.map((v) => v.name));
  for (const use of compiled.facts.undeclared) {
    if (GLOBAL_NAMES.has(use.name) || use.name === 'stream_state') continue;
    const deprecated = available.find((v) => v.name === use.name && v.deprecated);
    if (deprecated) {
      problems.push({ code: TEMPLATE_CODES.lastRecords, severity: 'warning', message: `${use.name} works in the Connector Builder but the Python CDK rejects it: ${deprecated.deprecated}`, span: span(t, use.start, use.end) });
      continue;
    }
    if (!names.has(use.name)) {
      const list = [...names].filter((n) => !available.find((v) => v.name === n)?.deprecated).join(', ');
      const hint = closestMatch(use.name, [...names, ...GLOBAL_NAMES]);
      const close = hint && hint !== use.name ? hint : undefined;
      const suggestion = close ? ` Did you mean \`${close}\`?` : '';
      problems.push({ code: TEMPLATE_CODES.notAvailable, severity: 'error', message: `'${use.name}' is not available in ${t.component}.${t.field}; available here: ${list}.${suggestion}`, span: span(t, use.start, use.end), ...(close ? { fix: { kind: 'replace', text: close } } : {}) });
    }
  }
  if (spec && names.has('config') && t.kind !== 'response_predicate') {
    for (const access of compiled.facts.configAccesses) {
      const finding = undeclaredConfigKey(spec, access.path, access.tolerant);
      if (finding) problems.push({ code: TEMPLATE_CODES.configKey, severity: finding.severity, message: finding.message, span: span(t, access.start, access.end) });
    }
  }
  return problems;
}
