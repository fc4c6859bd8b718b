// Corpus check of editor features, through the real language server over stdio (out/server.js):
// for every manifest of a folder,
//  - completion after `{{ config.` typed inside one of its templates lists every key declared by
//    spec.connection_specification (properties and oneOf/anyOf/allOf options);
//  - hover on each key of each `config.x` / `config['x']` / `config.get('x')` read inside a
//    `{{ }}` / `{% %}` tag shows that key's spec property (or, for a key the spec does not declare,
//    says so);
//  - go-to-definition on each `$ref` / `"#/…"` reference lands on the key its path names.
// The expectations are computed here, independently of the server: the spec and the reference
// targets are read with the `yaml` library. Prints counts and every miss; exits 1 on a miss.
// Usage: npm run build && node scripts/editorCorpus.mjs <folder> [--workers N]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { BenchClient } from '../bench/lspClient.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/editorCorpus.mjs <folder of manifests> [--workers N]');
  process.exit(2);
}
const workersArg = process.argv.indexOf('--workers');
const WORKERS = Math.max(1, Number(workersArg > 0 ? process.argv[workersArg + 1] : 2) || 2);
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

const counts = {
  manifests: files.length,
  completion: { checked: 0, hit: 0, miss: 0, noDeclaredKeys: 0, noTemplate: 0 },
  hover: { declaredUses: 0, hit: 0, miss: 0, undeclaredUses: 0, undeclaredSaid: 0 },
  definition: { references: 0, hit: 0, miss: 0, noTarget: 0 },
};
const misses = [];
const skipped = [];

// ---- expectations, computed without the server ----

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys a JSON schema node declares: its properties and those of its oneOf/anyOf/allOf branches. */
function declaredKeys(schema) {
  const out = new Map();
  if (!isObject(schema)) return out;
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) out.set(k, v);
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (!Array.isArray(schema[key])) continue;
    for (const branch of schema[key]) for (const [k, v] of declaredKeys(branch)) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** Where a reference path lands (CDK rules: the whole remaining path as one key first, `$ref`s followed): the yaml key node, or null. */
function referenceTarget(doc, path, hops = 0) {
  if (hops > 32) return null;
  let node = doc.contents;
  let keyNode = null;
  let rest = path;
  while (rest !== '') {
    if (isSeq(node)) {
      const slash = rest.indexOf('/');
      const first = slash < 0 ? rest : rest.slice(0, slash);
      if (!/^\d+$/.test(first) || Number(first) >= node.items.length) return null;
      node = node.items[Number(first)];
      keyNode = node;
      rest = slash < 0 ? '' : rest.slice(slash + 1);
      continue;
    }
    if (!isMap(node)) return null;
    const pair = (k) => node.items.find((p) => isScalar(p.key) && String(p.key.value) === k);
    const whole = pair(rest);
    if (whole) return whole.key;
    const slash = rest.indexOf('/');
    const first = slash < 0 ? rest : rest.slice(0, slash);
    const step = pair(first);
    if (step) {
      keyNode = step.key;
      node = step.value;
      rest = slash < 0 ? '' : rest.slice(slash + 1);
      continue;
    }
    const via = pair('$ref');
    if (!via || !isScalar(via.value) || typeof via.value.value !== 'string' || !via.value.value.startsWith('#/')) return null;
    const target = referenceTarget(doc, via.value.value.slice(2), hops + 1);
    if (!target) return null;
    node = targetValue(doc, target);
  }
  return keyNode;
}

/** The value node of a key node (or the node itself for a list item). */
function targetValue(doc, keyNode) {
  let found = keyNode;
  const visit = (n) => {
    if (isMap(n))
      for (const p of n.items) {
        if (p.key === keyNode) found = p.value;
        else visit(p.value);
      }
    else if (isSeq(n)) for (const i of n.items) visit(i);
  };
  visit(doc.contents);
  return found;
}

/** Line starts of a text, for offset → position. */
function lineIndex(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo] };
  };
}

/** `{{ … }}` and `{% … %}` tags of one line: [start, end) offsets inside the line. */
function tagsOfLine(line) {
  const tags = [];
  const re = /\{\{|\{%/g;
  let m;
  while ((m = re.exec(line))) {
    const close = line.indexOf(m[0] === '{{' ? '}}' : '%}', m.index + 2);
    const end = close < 0 ? line.length : close;
    tags.push([m.index + 2, end]);
    re.lastIndex = end;
  }
  return tags;
}

/** Accessors of a config chain and the regex group holding the key (`d`: with group offsets). */
const ACCESSORS = [
  // `.get('key'` (in a single-quoted YAML scalar the quote is doubled)
  [/^\s*\.\s*get\(\s*(''|'|")([^'"]*)\1/d, 2],
  [/^\s*\[\s*(''|'|")([^'"]*)\1\s*\]/d, 2],
  // `.key`, but not a method call such as `.keys()`
  [/^\s*\.\s*([A-Za-z_]\w*)(?!\w|\s*\()/d, 1],
];

/** Every config read inside a tag of the text: for each key of its chain, the key's offset and the path up to it. */
function configReads(text) {
  const reads = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (!line.trimStart().startsWith('#')) {
      for (const [from, to] of tagsOfLine(line)) {
        const tag = line.slice(from, to);
        const re = /(?<![\w.])config\b/g;
        let m;
        while ((m = re.exec(tag))) {
          let at = m.index + 'config'.length;
          const path = [];
          for (;;) {
            const rest = tag.slice(at);
            let hit = null;
            for (const [re, group] of ACCESSORS) {
              const am = re.exec(rest);
              if (am) {
                hit = { key: am[group], keyAt: am.indices[group][0], length: am[0].length };
                break;
              }
            }
            if (!hit) break;
            path.push(hit.key);
            reads.push({ offset: lineStart + from + at + hit.keyAt, path: [...path] });
            at += hit.length;
          }
        }
      }
    }
    lineStart += line.length + 1;
  }
  return reads;
}

/** Offsets of `#/…` reference strings written as values (`$ref: "#/a"`, `key: "#/a"`, `- "#/a"`). */
function referenceStrings(text) {
  const out = [];
  const re = /(?:^|[:\-[,]\s*)(["']?)(#\/[^"'\s,\]}]+)\1/gm;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (!line.trimStart().startsWith('#')) {
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line))) out.push({ offset: lineStart + m.index + m[0].indexOf('#/') + 2, path: m[2].slice(2) });
    }
    lineStart += line.length + 1;
  }
  return out;
}

/** The first template opening outside `spec` (also on a continuation line of a multi-line string), where `config.` is typed for the completion check. */
function completionSite(text) {
  let lineStart = 0;
  let inSpec = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inSpec = /^spec\s*:/.test(line);
    const open = line.indexOf('{{');
    if (!inSpec && open >= 0 && !line.trimStart().startsWith('#')) {
      const afterSpaces = open + 2 + /^ */.exec(line.slice(open + 2))[0].length;
      return lineStart + afterSpaces;
    }
    lineStart += line.length + 1;
  }
  return -1;
}

const markdownOf = (hover) => {
  const c = hover?.contents;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n') : (c?.value ?? '');
};

// ---- the checks, one manifest at a time per server process ----

async function checkManifest(client, file) {
  const text = readFileSync(join(dir, file), 'utf8');
  const uri = pathToFileURL(resolve(dir, file)).href;
  const doc = parseDocument(text, { uniqueKeys: false });
  const position = lineIndex(text);
  const specValue = doc.getIn(['spec', 'connection_specification'])?.toJSON?.() ?? null;
  const topKeys = declaredKeys(specValue);
  await client.open(uri, text);

  // Requests are pipelined (the server answers in order); only the answers are awaited together.
  const reads = configReads(text);
  const hovers = await Promise.all(
    reads.map((read) =>
      client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: position(read.offset + 1) }),
    ),
  );
  reads.forEach((read, i) => {
    let node = specValue;
    let declared = true;
    for (const key of read.path) {
      const props = declaredKeys(node);
      if (!props.has(key)) {
        declared = false;
        break;
      }
      node = props.get(key);
    }
    const md = markdownOf(hovers[i]);
    const name = `config.${read.path.join('.')}`;
    const at = `${file}:${position(read.offset).line + 1}`;
    if (declared) {
      counts.hover.declaredUses++;
      const title = isObject(node) && typeof node.title === 'string' ? node.title : null;
      if (md.startsWith(`**${name}**`) && !/not declared|not described/.test(md) && (!title || md.includes(title))) counts.hover.hit++;
      else {
        counts.hover.miss++;
        misses.push(`hover ${at} ${name}: ${md ? JSON.stringify(md.slice(0, 120)) : 'no hover'}`);
      }
    } else {
      counts.hover.undeclaredUses++;
      if (/not declared|not described|no spec\.connection_specification/.test(md)) counts.hover.undeclaredSaid++;
      else {
        counts.hover.miss++;
        misses.push(`hover ${at} ${name} (undeclared): ${md ? JSON.stringify(md.slice(0, 120)) : 'no hover'}`);
      }
    }
  });

  const refs = referenceStrings(text).map((ref) => ({ ...ref, target: referenceTarget(doc, ref.path) }));
  counts.definition.references += refs.length;
  const targeted = refs.filter((ref) => ref.target?.range);
  counts.definition.noTarget += refs.length - targeted.length;
  const answers = await Promise.all(
    targeted.map((ref) =>
      client.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: position(ref.offset) }),
    ),
  );
  targeted.forEach((ref, i) => {
    const target = ref.target;
    const links = answers[i];
    const got = Array.isArray(links) && links[0] ? (links[0].targetSelectionRange ?? links[0].range).start : null;
    const want = position(target.range[0]);
    if (got && got.line === want.line && got.character === want.character) counts.definition.hit++;
    else {
      counts.definition.miss++;
      misses.push(
        `definition ${file}:${position(ref.offset).line + 1} #/${ref.path}: ${got ? `line ${got.line + 1}` : 'no target'}, expected line ${want.line + 1}`,
      );
    }
  });

  // Last, because it edits the document: type `config.` at the start of a template.
  if (topKeys.size === 0) {
    counts.completion.noDeclaredKeys++;
    skipped.push(
      `${file}: ${specValue ? 'spec.connection_specification declares no properties' : 'no spec.connection_specification in the manifest'}`,
    );
  } else {
    const site = completionSite(text);
    if (site < 0) {
      counts.completion.noTemplate++;
      skipped.push(`${file}: no template outside spec`);
    } else {
      counts.completion.checked++;
      const at = position(site);
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range: { start: at, end: at }, text: 'config.' }],
      });
      const [, result] = await client.timed('textDocument/completion', {
        textDocument: { uri },
        position: { line: at.line, character: at.character + 'config.'.length },
      });
      const labels = new Set((Array.isArray(result) ? result : (result?.items ?? [])).map((i) => i.label));
      const missing = [...topKeys.keys()].filter((k) => !labels.has(k));
      if (missing.length === 0) counts.completion.hit++;
      else {
        counts.completion.miss++;
        misses.push(`completion ${file}:${at.line + 1}: missing ${missing.join(', ')}`);
      }
    }
  }
  await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
}

const started = performance.now();
const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(WORKERS, files.length) }, async () => {
    // Edits are never validated during the check: only the open is (that is the server's normal path).
    const client = new BenchClient([process.execPath, join(repo, 'out/server.js'), '--stdio']);
    await client.initialize({ validationDelayMs: 3_600_000 });
    try {
      for (let file = queue.shift(); file; file = queue.shift()) {
        try {
          await checkManifest(client, file);
        } catch (e) {
          misses.push(`${file}: the check failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    } finally {
      await client.stop();
    }
  }),
);

const c = counts;
console.log(
  `editor corpus check: ${c.manifests} manifests in ${((performance.now() - started) / 1000).toFixed(1)} s (${WORKERS} server processes)`,
);
console.log(
  `completion after {{ config. : ${c.completion.checked} checked, ${c.completion.hit} list every declared key, ${c.completion.miss} misses; skipped: ${c.completion.noDeclaredKeys} without declared keys, ${c.completion.noTemplate} without a template`,
);
console.log(
  `hover on config reads: ${c.hover.declaredUses} declared keys, ${c.hover.hit} show their spec property; ${c.hover.undeclaredUses} undeclared keys, ${c.hover.undeclaredSaid} say so; ${c.hover.miss} misses`,
);
console.log(
  `definition on references: ${c.definition.references} references, ${c.definition.hit} land on their target, ${c.definition.miss} misses, ${c.definition.noTarget} without a target`,
);
for (const s of skipped.sort()) console.log(`completion check skipped: ${s}`);
for (const m of misses) console.log(`MISS ${m}`);
process.exit(misses.length ? 1 : 0);
