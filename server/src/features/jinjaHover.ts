// Hover and go-to-definition inside templates: a variable's meaning and where it is available, a
// config key's spec property (title, type, description, secret), macros and filters with signature
// and example. Results carry template-relative spans mapped back to document offsets.
import { compileTemplate } from '../runtime';
import { FILTER_DOCS, MACRO_DOCS, kindsProviding, variablesOf, VARIABLES_BY_KIND } from '../runtime';
import { declaredKeys, resolveConfigProperty, undeclaredConfigKey, type ConfigSpec } from '../runtime';
import { configPropertyMarkdown } from './jinjaCompletion';
import { wordAt, type TemplateAt } from './jinjaCursor';

/** A hover result in document offsets. */
export interface TemplateHover {
  markdown: string;
  start: number;
  end: number;
}

function docSpan(at: TemplateAt, start: number, end: number): { start: number; end: number } {
  const o = at.template.offsets;
  return { start: o[Math.min(start, o.length - 1)], end: o[Math.min(end, o.length - 1)] };
}

/** The config access (key path and template span) under the cursor, if any. */
export function configAccessAt(at: TemplateAt): { path: string[]; start: number; end: number } | null {
  let facts;
  try {
    facts = compileTemplate(at.template.text).facts;
  } catch {
    return null;
  }
  // The innermost read under the cursor: in `config.get('a', config['b'])` hovering `b` concerns `config.b`.
  let hit: (typeof facts.configAccesses)[number] | undefined;
  for (const a of facts.configAccesses) {
    if (a.start <= at.index && at.index <= a.end && (!hit || a.end - a.start < hit.end - hit.start)) hit = a;
  }
  if (!hit) return null;
  // Hovering `a` in `config.a.b` concerns `config.a`: cut the path at the key under the cursor.
  const text = at.template.text;
  let path = hit.path;
  for (let i = 1; i <= hit.path.length; i++) {
    const key = hit.path[i - 1];
    const pos = text.indexOf(key, hit.start);
    if (pos >= 0 && at.index <= pos + key.length) {
      path = hit.path.slice(0, i);
      break;
    }
  }
  return { path, start: hit.start, end: hit.end };
}

/** Hover inside a template; null when nothing is known about the word under the cursor. Never throws. */
export function templateHover(at: TemplateAt, spec: ConfigSpec | null): TemplateHover | null {
  const text = at.template.text;
  const word = wordAt(text, at.index);
  if (!word) return null;
  const before = text.slice(0, word.start);
  const access = configAccessAt(at);
  if (access && access.path.length > 0 && word.word !== 'config') {
    return { markdown: configAccessMarkdown(spec, access.path), ...docSpan(at, word.start, word.end) };
  }
  if (/\|\s*$/.test(before)) {
    const f = FILTER_DOCS.find((d) => d.name === word.word);
    if (f)
      return {
        markdown: `**filter** \`${f.signature}\`\n\n${f.description}\n\n\`\`\`jinja\n${f.example}\n\`\`\``,
        ...docSpan(at, word.start, word.end),
      };
    return null;
  }
  if (/\.\s*$/.test(before)) return null;
  const macro = MACRO_DOCS.find((d) => d.name === word.word);
  if (macro)
    return {
      markdown: `**macro** \`${macro.signature}\`\n\n${macro.description}\n\n\`\`\`jinja\n${macro.example}\n\`\`\``,
      ...docSpan(at, word.start, word.end),
    };
  const here = variablesOf(at.template.kind).find((v) => v.name === word.word);
  const anywhere =
    here ??
    Object.values(VARIABLES_BY_KIND)
      .flat()
      .find((v) => v.name === word.word);
  if (!anywhere) return null;
  const kinds = kindsProviding(word.word);
  const where = here
    ? `Available in ${at.template.component}.${at.template.field}.`
    : `**Not available in ${at.template.component}.${at.template.field}** (template context \`${at.template.kind}\`); available in contexts: ${kinds.join(', ')}.`;
  const warn = anywhere.deprecated ? `\n\n⚠ ${anywhere.deprecated}` : '';
  return {
    markdown: `**${anywhere.name}** — ${anywhere.description}\n\n${where}${warn}\n\n\`\`\`jinja\n${anywhere.example}\n\`\`\``,
    ...docSpan(at, word.start, word.end),
  };
}

/** Hover text of a config key path: its spec property, or why it has none. */
function configAccessMarkdown(spec: ConfigSpec | null, path: string[]): string {
  const name = `config.${path.join('.')}`;
  if (!spec) return `**${name}** — this manifest has no spec.connection_specification.`;
  const prop = resolveConfigProperty(spec, path);
  if (prop) return configPropertyMarkdown(path.join('.'), prop.schema, prop.options);
  const finding = undeclaredConfigKey(spec, path);
  if (finding) return `**${name}** — ${finding.message}`;
  // Below a property whose keys the spec does not list (a free-form object).
  const parent = resolveConfigProperty(spec, path.slice(0, -1));
  return `**${name}** — not described by spec.connection_specification${parent && !declaredKeys(parent.schema) ? ` (\`config.${path.slice(0, -1).join('.')}\` lists no properties)` : ''}.`;
}

/** Source path of the spec property a config access points to (for go-to-definition), or null. */
export function configDefinitionPath(at: TemplateAt, spec: ConfigSpec | null): (string | number)[] | null {
  const access = configAccessAt(at);
  if (!access || access.path.length === 0 || !spec) return null;
  const prop = resolveConfigProperty(spec, access.path);
  return prop ? ['spec', 'connection_specification', ...prop.specPath] : null;
}
