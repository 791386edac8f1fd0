// Lengths of the functions in src/, for the house rule "no function over 120 lines without a
// comment saying why" (test/structure/function-length.test.ts). Run it alone to list the longest:
//   node --import tsx test/helpers/function-lengths.ts
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = join(import.meta.dirname, "..", "..");

/** One function-like node of src/: where it starts, its name, its lines, its `// long:` reason. */
export interface Measured {
  /** Path from the repository root. */
  file: string;
  line: number;
  name: string;
  lines: number;
  reason: string | undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText();
  }
  return "(anonymous)";
}

/** The `// long:` reason in the comments just above the function or above what holds it. */
function reasonFor(node: ts.Node, text: string): string | undefined {
  for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
    for (const range of ts.getLeadingCommentRanges(text, at.getFullStart()) ?? []) {
      const match = /\/\/\s*long:\s*(\S.*)/.exec(text.slice(range.pos, range.end));
      if (match) return match[1];
    }
    if (ts.isStatement(at) || ts.isClassElement(at)) break;
  }
  return undefined;
}

/** Every function-like node of one TypeScript source, with its length in lines. */
export function measureSource(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: start + 1, name: nameOf(node), lines: end - start + 1, reason: reasonFor(node, text) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function-like node in src/ (longest first). */
export function measureFunctions(): Measured[] {
  return sourceFiles(join(ROOT, "src"))
    .flatMap((path) => measureSource(relative(ROOT, path), readFileSync(path, "utf8")))
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const min = Number(process.argv[2] ?? 100);
  for (const f of measureFunctions().filter((m) => m.lines >= min)) {
    process.stdout.write(`${f.lines}\t${f.file}:${f.line}\t${f.name}${f.reason ? `\t(long: ${f.reason})` : ""}\n`);
  }
}
