// Where the cursor is inside a template: which template (from the rules' FoundTemplate list), the
// offset inside it, whether it is inside a `{{ }}` / `{% %}` tag, and the word and access chain
// before it. Shared by template completion, hover and definition. Offsets, not positions.
import type { FoundTemplate } from '../runtime';

/** The template under a document offset and the cursor's index inside the template text. */
export interface TemplateAt {
  template: FoundTemplate;
  /** Index into template.text. */
  index: number;
}

/** Finds the template whose source range contains `offset` (inclusive end, so typing at the end works). */
export function templateAt(templates: readonly FoundTemplate[], offset: number): TemplateAt | null {
  for (const t of templates) {
    const first = t.offsets[0];
    const last = t.offsets[t.offsets.length - 1];
    if (offset < first || offset > last) continue;
    let index = 0;
    while (index < t.offsets.length - 1 && t.offsets[index] < offset) index++;
    return { template: t, index };
  }
  return null;
}

/** The text of the open tag before the cursor (`{{ config.` → ` config.`), or null outside a tag. */
export function openTagPrefix(text: string, index: number): string | null {
  const before = text.slice(0, index);
  const open = Math.max(before.lastIndexOf('{{'), before.lastIndexOf('{%'));
  if (open < 0) return null;
  const close = Math.max(before.lastIndexOf('}}'), before.lastIndexOf('%}'));
  if (close > open) return null;
  return before.slice(open + 2);
}

/** The identifier around `index` (start/end inside the template), or null. */
export function wordAt(text: string, index: number): { word: string; start: number; end: number } | null {
  let start = index;
  let end = index;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1])) start--;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end])) end++;
  if (start === end || /^\d/.test(text.slice(start, end))) return null;
  return { word: text.slice(start, end), start, end };
}

/** Parses a config access chain written before the cursor: `config.a['b'].get('` → path ['a','b'] and the partial key. */
export function configChainBefore(prefix: string): { path: string[]; partial: string; quoted: boolean } | null {
  const m =
    /\bconfig((?:\.[A-Za-z_]\w*|\[\s*['"][^'"]*['"]\s*\]|\.get\(\s*['"][^'"]*['"][^)]*\))*)(\.|\[\s*['"]|\.get\(\s*['"])([\w-]*)$/.exec(
      prefix,
    );
  if (!m) return null;
  const path: string[] = [];
  for (const part of m[1].matchAll(/\.get\(\s*['"]([^'"]*)['"][^)]*\)|\.([A-Za-z_]\w*)|\[\s*['"]([^'"]*)['"]\s*\]/g)) {
    path.push(part[1] ?? part[2] ?? part[3]);
  }
  return { path, partial: m[3], quoted: m[2] !== '.' };
}
