// The static import graph of src/, read with TypeScript's own parser (not a regular expression:
// comments, strings and `import type` must not count). Only edges that make Node evaluate the
// target before the importer count:
// - `import … from` / `export … from` / `import "…"`, unless the whole declaration is
//   `import type` / `export type` (erased). `import { type A } from "./a.js"` is NOT erased:
//   under verbatimModuleSyntax, tsc and esbuild keep it as `import {} from "./a.js"`, which still
//   evaluates ./a.js first.
// - Dynamic `import()` is left out: it runs after every module has finished evaluating, so it
//   cannot see a binding before its initialisation (the CLI loads its commands that way on purpose).
// With `types`, erased imports count too (no file in a cycle even for types, issue 28).
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Every TypeScript module under `dir` (declaration files left out: they never run). */
export function sourceModules(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mts)$/.test(f) && !/\.d\.m?ts$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}

/**
 * The relative specifiers `file` imports at load time, as they are written; with `types`, also
 * those it imports only for types (a cycle of those breaks no load, but still ties the files
 * together: neither can be read, moved or tested without the other).
 */
export function runtimeSpecifiers(file: string, types = false): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!types && statement.importClause?.isTypeOnly === true) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement)) {
      if ((!types && statement.isTypeOnly) || statement.moduleSpecifier === undefined) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers.filter((s) => s.startsWith("./") || s.startsWith("../"));
}

/** `./x.js` written in `from` → the source file it names (`x.ts`; `.mjs` → `.mts`), or the path as written. */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string {
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, ".ts"), target.replace(/\.mjs$/, ".mts"), target]) {
    if (known.has(candidate)) return candidate;
  }
  return target;
}

/** File → the files of `files` it evaluates first (with `types`, or imports types from). */
export function importGraph(files: readonly string[], types = false): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    graph.set(
      file,
      runtimeSpecifiers(file, types)
        .map((s) => resolveSpecifier(file, s, known))
        .filter((t) => known.has(t)),
    );
  }
  return graph;
}

/**
 * The strongly connected components with more than one file, or a file importing itself (Tarjan,
 * iterative so a deep chain cannot overflow the stack): each one is a set of files that import
 * each other at load time, whichever way round.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || targets.includes(frame.node)) components.push(component.sort());
    }
  }
  return components;
}

/** One shortest path of imports from `start` back to itself inside its component: the cycle to read. */
export function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, start: string, root: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start].map((p) => relative(root, p));
      }
      if (previous.has(target)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  return [];
}
