// Completion inside templates: the variables valid for the field (variables.ts), `parameters` keys
// in scope, config keys declared in spec.connection_specification after `config.`, `config['` and
// `config.get('` (nested objects too), macros with signature, filters after `|` and tests after `is`.
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver';
import { JINJA_TEST_NAMES } from '../runtime';
import { FILTER_DOCS, MACRO_DOCS, variablesOf, type TemplateFunctionDoc } from '../runtime';
import { declaredKeys, type ConfigSpec } from '../runtime';
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

/** A JSON value as short inline code for hover (long values cut). */
function inlineValue(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return `\`${text.length > 80 ? `${text.slice(0, 77)}…` : text}\``;
}

/** The type of a property schema as written (`string`, `string | null`, `object`…), or null. */
function typeText(p: Record<string, unknown>): string | null {
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.map(String).join(' | ');
  if (Array.isArray(p.oneOf) || Array.isArray(p.anyOf)) return 'object (one of several options)';
  return null;
}

/**
 * Markdown describing a config property of the spec: title, type, description, whether it is
 * secret, its default, examples and allowed values, and the `oneOf` options that declare it.
 */
export function configPropertyMarkdown(name: string, prop: unknown, options: readonly string[] = []): string {
  const p = (prop && typeof prop === 'object' ? prop : {}) as Record<string, unknown>;
  const lines = [`**config.${name}**${typeof p.title === 'string' ? ` — ${p.title}` : ''}`];
  const facts: string[] = [];
  const type = typeText(p);
  if (type) facts.push(`Type: \`${type}\``);
  if (p.airbyte_secret === true) facts.push('**Secret** (`airbyte_secret`): masked in logs and test-read output');
  if (p.default !== undefined) facts.push(`Default: ${inlineValue(p.default)}`);
  if (Array.isArray(p.enum)) facts.push(`Allowed values: ${p.enum.map(inlineValue).join(', ')}`);
  if (p.const !== undefined) facts.push(`Constant: ${inlineValue(p.const)}`);
  if (facts.length) lines.push(facts.join(' · '));
  if (typeof p.description === 'string') lines.push(p.description);
  const examples = Array.isArray(p.examples) ? p.examples : p.example !== undefined ? [p.example] : [];
  if (examples.length) lines.push(`Examples: ${examples.slice(0, 5).map(inlineValue).join(', ')}`);
  if (options.length)
    lines.push(
      `Declared by the option${options.length > 1 ? 's' : ''} ${options.map((o) => `*${o}*`).join(', ')} of \`config.${name.split('.').slice(0, -1).join('.') || name}\`.`,
    );
  return lines.join('\n\n');
}

function configItems(spec: ConfigSpec | null, path: string[], quoted: boolean): CompletionItem[] {
  if (!spec) return [];
  let node: unknown = spec;
  for (const key of path) {
    const prop = declaredKeys(node)?.properties.get(key);
    if (!prop) return [];
    node = prop.schema;
  }
  const keys = declaredKeys(node);
  if (!keys) return [];
  return [...keys.properties].map(([name, { schema: p, options }], i) => {
    const type = typeText(p);
    return {
      label: name,
      kind: CompletionItemKind.Field,
      detail:
        [
          typeof p.title === 'string' ? p.title : null,
          type,
          p.airbyte_secret === true ? 'secret' : null,
          options.length ? `option: ${options.join(' | ')}` : null,
        ]
          .filter(Boolean)
          .join(' · ') || undefined,
      documentation: { kind: MarkupKind.Markdown, value: configPropertyMarkdown([...path, name].join('.'), p, options) },
      // Declared order (the spec's `order` is the form's order, not the schema's).
      sortText: String(i).padStart(4, '0'),
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
  if (/\bis\s+(?:not\s+)?[A-Za-z_]*$/.test(prefix))
    return JINJA_TEST_NAMES.map((n) => ({ label: n, kind: CompletionItemKind.Keyword, detail: 'test' }));
  // After a dot on anything else the members depend on runtime values: nothing sensible to offer.
  if (/\.\s*[A-Za-z_]*$/.test(prefix)) return [];
  const items: CompletionItem[] = variablesOf(at.template.kind).map((v) => ({
    label: v.name,
    kind: CompletionItemKind.Variable,
    detail: v.deprecated ? 'Connector Builder only' : `available in ${at.template.component}.${at.template.field}`,
    documentation: {
      kind: MarkupKind.Markdown,
      value: `${v.description}${v.deprecated ? `\n\n⚠ ${v.deprecated}` : ''}\n\n\`\`\`jinja\n${v.example}\n\`\`\``,
    },
    sortText: v.deprecated ? 'z' + v.name : '0' + v.name,
    ...(v.deprecated ? { tags: [1 as const] } : {}),
  }));
  for (const d of MACRO_DOCS) items.push({ ...functionItem(d, CompletionItemKind.Function, true), sortText: '1' + d.name });
  return items;
}
