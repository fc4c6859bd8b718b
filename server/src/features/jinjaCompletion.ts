// Completion inside templates: the variables valid for the field (variables.ts), `parameters` keys
// in scope, config keys declared in spec.connection_specification after `config.`, `config['` and
// `config.get('` (nested objects too), macros with signature, filters after `|` and tests after `is`.
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver';
import { JINJA_TEST_NAMES } from '../runtime/interpolation/jinjaTests';
import { FILTER_DOCS, MACRO_DOCS, variablesOf, type TemplateFunctionDoc } from '../runtime/interpolation/variables';
import { declaredProperties, type ConfigSpec } from '../runtime/rules/templateConfigKeys';
import { configChainBefore, openTagPrefix, type TemplateAt } from './jinjaCursor';

/** What template completion needs besides the cursor. */
export interface TemplateCompletionContext {
  /** spec.connection_specification, or null. */
  spec: ConfigSpec | null;
  /** Keys of the $parameters in scope of the component. */
  parameterKeys: readonly string[];
}

function functionItem(d: TemplateFunctionDoc, kind: CompletionItemKind, call: boolean): CompletionItem {
  const needsArgs = /\(.+\)/.test(d.signature);
  return {
    label: d.name,
    kind,
    detail: d.signature,
    documentation: { kind: MarkupKind.Markdown, value: `${d.description}\n\n\`\`\`jinja\n${d.example}\n\`\`\`` },
    ...(call ? { insertText: needsArgs ? `${d.name}($1)` : `${d.name}()`, insertTextFormat: InsertTextFormat.Snippet } : {}),
  };
}

/** Markdown describing a config property of the spec (title, type, description, secret). */
export function configPropertyMarkdown(name: string, prop: unknown): string {
  const p = (prop && typeof prop === 'object' ? prop : {}) as Record<string, unknown>;
  const lines = [`**config.${name}**${typeof p.title === 'string' ? ` — ${p.title}` : ''}`];
  if (p.type !== undefined) lines.push(`Type: \`${Array.isArray(p.type) ? p.type.join(' | ') : String(p.type)}\``);
  if (typeof p.description === 'string') lines.push(p.description);
  if (p.airbyte_secret === true) lines.push('Secret: the value is masked in logs and test-read output.');
  return lines.join('\n\n');
}

function configItems(spec: ConfigSpec | null, path: string[], quoted: boolean): CompletionItem[] {
  if (!spec) return [];
  let node: unknown = spec;
  for (const key of path) {
    const props = declaredProperties(node);
    if (!props || !props.has(key)) return [];
    node = props.get(key);
  }
  const props = declaredProperties(node);
  if (!props) return [];
  return [...props].map(([name, prop]) => {
    const p = (prop ?? {}) as Record<string, unknown>;
    return {
      label: name,
      kind: CompletionItemKind.Field,
      detail: [typeof p.title === 'string' ? p.title : null, typeof p.type === 'string' ? p.type : null, p.airbyte_secret === true ? 'secret' : null].filter(Boolean).join(' · ') || undefined,
      documentation: { kind: MarkupKind.Markdown, value: configPropertyMarkdown([...path, name].join('.'), prop) },
      // Keys that are not identifiers only work with subscript syntax.
      ...(quoted || /^[A-Za-z_]\w*$/.test(name) ? {} : { insertText: `['${name}']` }),
    };
  });
}

/** Completion items at a cursor inside a template; [] outside `{{ }}` / `{% %}`. Never throws. */
export function templateCompletions(at: TemplateAt, ctx: TemplateCompletionContext): CompletionItem[] {
  const prefix = openTagPrefix(at.template.text, at.index);
  if (prefix === null) return [];
  const chain = configChainBefore(prefix);
  if (chain) return configItems(ctx.spec, chain.path, chain.quoted);
  if (/\bparameters(?:\.|\[\s*['"]|\.get\(\s*['"])[\w-]*$/.test(prefix)) {
    return ctx.parameterKeys.map((k) => ({ label: k, kind: CompletionItemKind.Field, detail: '$parameters' }));
  }
  if (/\|\s*[A-Za-z_]*$/.test(prefix)) return FILTER_DOCS.map((d) => functionItem(d, CompletionItemKind.Function, false));
  if (/\bis\s+(?:not\s+)?[A-Za-z_]*$/.test(prefix)) return JINJA_TEST_NAMES.map((n) => ({ label: n, kind: CompletionItemKind.Keyword, detail: 'test' }));
  // After a dot on anything else the members depend on runtime values: nothing sensible to offer.
  if (/\.\s*[A-Za-z_]*$/.test(prefix)) return [];
  const items: CompletionItem[] = variablesOf(at.template.kind).map((v) => ({
    label: v.name,
    kind: CompletionItemKind.Variable,
    detail: v.deprecated ? 'Connector Builder only' : `available in ${at.template.component}.${at.template.field}`,
    documentation: { kind: MarkupKind.Markdown, value: `${v.description}${v.deprecated ? `\n\n⚠ ${v.deprecated}` : ''}\n\n\`\`\`jinja\n${v.example}\n\`\`\`` },
    sortText: v.deprecated ? 'z' + v.name : '0' + v.name,
    ...(v.deprecated ? { tags: [1 as const] } : {}),
  }));
  for (const d of MACRO_DOCS) items.push({ ...functionItem(d, CompletionItemKind.Function, true), sortText: '1' + d.name });
  return items;
}
