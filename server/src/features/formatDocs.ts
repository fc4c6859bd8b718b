// Markdown documentation of components and fields, derived from the catalog entries; shared by
// completion (item documentation) and hover so both say the same thing.
import type { ComponentInfo, FieldInfo } from './formatIndex';

/** A one-line summary of what a field accepts (for completion details). */
export function fieldSummary(info: FieldInfo): string {
  const parts: string[] = [];
  if (info.required) parts.push('required');
  if (info.components?.length) {
    const names = info.components.length > 3 ? `${info.components.slice(0, 3).join(' | ')} | …` : info.components.join(' | ');
    parts.push(info.list ? `list of ${names}` : names);
  } else if (info.enum?.length) parts.push(info.enum.map(String).join(' | '));
  else if (info.types?.length) parts.push(info.types.join(' | '));
  return parts.join(' · ');
}

/** Hover / completion documentation of field `name`. */
export function fieldMarkdown(ownerType: string, name: string, info: FieldInfo): string {
  const lines = [`**${name}**${info.label ? ` — *${info.label}* in the Connector Builder` : ''}`, '', info.description];
  const facts: string[] = [];
  if (info.required) facts.push('Required.');
  if (info.default !== undefined) facts.push(`Default: \`${JSON.stringify(info.default)}\`.`);
  if (info.enum?.length) facts.push(`Allowed values: ${info.enum.map((v) => `\`${String(v)}\``).join(', ')}.`);
  else if (info.examples?.length)
    facts.push(`Typical values: ${info.examples.map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``).join(', ')}.`);
  if (info.components?.length) facts.push(`Accepts ${info.list ? 'a list of ' : ''}${info.components.map((c) => `\`${c}\``).join(', ')}.`);
  if (info.deprecated) facts.push(`Deprecated: ${info.deprecated}.`);
  if (info.removedIn) facts.push(`Removed in CDK ${info.removedIn}.`);
  if (facts.length) lines.push('', facts.join(' '));
  if (info.example) lines.push('', 'Example:', '```yaml', `${name}: ${indentExample(info.example)}`, '```');
  lines.push('', `*Field of \`${ownerType}\`.*`);
  return lines.join('\n');
}

/** Hover / completion documentation of a component type. */
export function componentMarkdown(info: ComponentInfo): string {
  const lines = [`**${info.type}**${info.label ? ` — *${info.label}* in the Connector Builder` : ''}`, '', info.description];
  const required = Object.entries(info.fields)
    .filter(([, f]) => f.required)
    .map(([n]) => `\`${n}\``);
  if (required.length) lines.push('', `Required fields: ${required.join(', ')}.`);
  if (info.deprecated) lines.push('', `Deprecated: ${info.deprecated}.`);
  if (info.removedIn) lines.push('', `Removed in CDK ${info.removedIn}.`);
  if (info.example) lines.push('', 'Example:', '```yaml', info.example, '```');
  return lines.join('\n');
}

/** Multi-line examples continue on the next lines, indented under the key. */
function indentExample(example: string): string {
  return example.includes('\n')
    ? `\n${example
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}`
    : example;
}
