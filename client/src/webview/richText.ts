// Spec descriptions as formatted text, safely. Connector specs write descriptions in a little HTML
// (`<a href>`, `<b>`, `<code>`, `<br>`, lists) or Markdown (`[text](url)`, `**bold**`, `` `code` ``).
// This parses that into a small tree of allowed elements and text; everything else becomes text. The
// tree is turned into DOM with createElement/text nodes only — never innerHTML — so a description can
// neither inject markup nor run script. Pure (no DOM): the unit tests call it directly.

/** An allowed element with its children, or a text run. Links carry only an http(s)/mailto href. */
export type RichNode = string | { tag: RichTag; href?: string; children: RichNode[] };
export type RichTag = 'a' | 'b' | 'i' | 'code' | 'br' | 'p' | 'ul' | 'ol' | 'li' | 'pre';

const TAG_ALIASES: Record<string, RichTag> = {
  a: 'a',
  b: 'b',
  strong: 'b',
  i: 'i',
  em: 'i',
  code: 'code',
  tt: 'code',
  br: 'br',
  p: 'p',
  div: 'p',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  pre: 'pre',
};
const VOID: ReadonlySet<string> = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr']);
/** Elements whose content is dropped entirely (never shown as text either). */
const DROP_CONTENT: ReadonlySet<string> = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

/** A link target that is safe to open: http(s) or mailto, nothing else (no javascript:, data:, command:). */
export function safeHref(raw: string): string | undefined {
  const href = decodeEntities(raw.trim());
  return /^(https?:\/\/|mailto:)[^\s"'<>]+$/i.test(href) ? href : undefined;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16) || 0xfffd);
    if (lower.startsWith('#') && lower !== '#39') return String.fromCodePoint(Number(lower.slice(1)) || 0xfffd);
    return ENTITIES[lower] ?? m;
  });
}

/** Markdown inline syntax within a text run: links, bold, italics, code. */
function markdownInline(text: string): RichNode[] {
  const out: RichNode[] = [];
  const re = /\[([^\]\n]+)\]\(([^)\s]+)\)|\*\*([^*\n]+)\*\*|`([^`\n]+)`|(?<![\w*])\*([^*\n]+)\*(?![\w*])|(?<![\w])_([^_\n]+)_(?![\w])/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) {
      const href = safeHref(m[2]);
      out.push(href ? { tag: 'a', href, children: [m[1]] } : m[1]);
    } else if (m[3] !== undefined) out.push({ tag: 'b', children: [m[3]] });
    else if (m[4] !== undefined) out.push({ tag: 'code', children: [m[4]] });
    else out.push({ tag: 'i', children: [m[5] ?? m[6]] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Parses a description into allowed nodes. Unknown tags keep their text; dangerous ones lose it. */
export function parseRichText(source: string): RichNode[] {
  const root: { tag: RichTag | 'root'; children: RichNode[] } = { tag: 'root', children: [] };
  const stack: Array<{ tag: string; node: { children: RichNode[] } | null }> = [{ tag: 'root', node: root }];
  let dropDepth = 0;
  const top = () => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const n = stack[i].node;
      if (n) return n;
    }
    return root;
  };
  const re = /<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  let last = 0;
  const pushText = (raw: string) => {
    if (dropDepth > 0 || raw === '') return;
    top().children.push(...markdownInline(decodeEntities(raw)));
  };
  for (let m = re.exec(source); m; m = re.exec(source)) {
    pushText(source.slice(last, m.index));
    last = m.index + m[0].length;
    if (!m[1]) continue; // a comment
    const name = m[1].toLowerCase();
    const closing = m[0].startsWith('</');
    if (DROP_CONTENT.has(name)) {
      if (closing) dropDepth = Math.max(0, dropDepth - 1);
      else if (!m[0].endsWith('/>')) dropDepth++;
      continue;
    }
    if (dropDepth > 0) continue;
    const tag = TAG_ALIASES[name];
    if (closing) {
      const at = stack.map((s) => s.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    if (tag === 'br') {
      top().children.push({ tag: 'br', children: [] });
      continue;
    }
    if (VOID.has(name)) continue;
    let node: { tag: RichTag; href?: string; children: RichNode[] } | null = null;
    if (tag) {
      node = { tag, children: [] };
      if (tag === 'a') {
        const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(m[2] ?? '');
        const safe = href ? safeHref(href[1] ?? href[2] ?? href[3] ?? '') : undefined;
        if (safe) node.href = safe;
      }
      top().children.push(node);
    }
    if (!m[0].endsWith('/>')) stack.push({ tag: name, node });
  }
  pushText(source.slice(last));
  return root.children;
}

/** The plain text of nodes (for titles and tests). */
export function richTextToPlain(nodes: RichNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : n.tag === 'br' ? '\n' : richTextToPlain(n.children))).join('');
}
