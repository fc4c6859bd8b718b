// The import graph of the product's sources (server/src, client/src), for the architecture tests in
// layering.test.ts. Every import counts: `import type`, `export … from`, `import()` and `require()`
// with a literal path, read with TypeScript's own pre-processor (no type checking, so it is quick).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const ROOT = join(__dirname, '..', '..');

export type ImportGraph = {
  /** Every source file, as a path from the repository root with `/` separators. */
  files: string[];
  /** file → the source files it imports (relative imports that resolve to a file of the graph). */
  imports: Map<string, Set<string>>;
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const toRel = (full: string) => relative(ROOT, full).split(sep).join('/');

/** The graph of the `.ts` files under `dirs` (paths from the repository root). */
export function importGraph(dirs: string[] = ['server/src', 'client/src']): ImportGraph {
  const files = dirs
    .flatMap((d) => sources(join(ROOT, d)))
    .map(toRel)
    .sort();
  const known = new Set(files);
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const base = toRel(resolve(dirname(join(ROOT, file)), imported.fileName));
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((c) => known.has(c));
      if (target) targets.add(target);
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** The import circles: strongly connected components of more than one file (Tarjan), each sorted. */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.imports.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const f of graph.files) if (!index.has(f)) visit(f);
  return circles;
}

/**
 * The layer of a file: the index of the layer holding the longest prefix of its path (a folder ends
 * with `/`, a file is named whole), or -1 when no layer holds it.
 */
export function layerOf(layers: readonly (readonly string[])[], file: string): number {
  let best = -1;
  let bestLength = -1;
  layers.forEach((members, i) => {
    for (const m of members) {
      const hit = m.endsWith('/') ? file.startsWith(m) : file === m;
      if (hit && m.length > bestLength) {
        best = i;
        bestLength = m.length;
      }
    }
  });
  return best;
}

/** Imports from a file to one of a higher layer (`layers` lists the layers from the bottom up), as `a -> b`. */
export function upwardImports(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph.imports) {
    const from = layerOf(layers, file);
    if (from < 0) continue;
    for (const target of targets) {
      const to = layerOf(layers, target);
      if (to > from) out.push(`${file} -> ${target}`);
    }
  }
  return out.sort();
}
