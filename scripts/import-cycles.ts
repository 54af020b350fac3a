/**
 * Import cycles among the project's modules: `npx tsx scripts/import-cycles.ts` prints each
 * group of modules that import each other (directly or through others) and exits 1 if there is
 * one; tests/integration/dependency-direction.test.ts asserts there is none in each checked
 * folder.
 *
 * The checked folders are app/, server/, embedded-mongo/ and scripts/, read as one graph, so a
 * cycle that crosses folders is found too. Specifiers are resolved as the compiler and the
 * bundler resolve them: relative paths, `~/` to app/ (tsconfig `paths`; server/ and scripts/
 * use it too), and the workspace package `@night-shore/embedded-mongo` to its entry
 * (embedded-mongo/ has no alias: it imports itself only by relative paths). Other packages are
 * not followed.
 *
 * Only imports that exist at run time count: `import type` and imports whose every name is
 * a type are erased by the compiler, so they cannot make modules wait on each other. Dynamic
 * `import()` is not a static edge either: it runs after every module involved has loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

/** An import between two modules, paths relative to the project root (`app/root.tsx`). */
export type ImportEdge = { from: string; to: string; typeOnly: boolean };

/** The folders whose modules the check reads, relative to the project root. */
export const CHECKED_FOLDERS = ['app', 'server', 'embedded-mongo', 'scripts'] as const;

/** Workspace packages, by name, and their entry module relative to the project root. */
const WORKSPACE_PACKAGES: Record<string, string> = {
  '@night-shore/embedded-mongo': 'embedded-mongo/index.ts',
};

const SOURCE = /\.(ts|tsx)$/;

function listSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/**
 * A relative, `~/` or workspace-package specifier to a module of the project (null for other
 * packages, and for anything that is not a .ts/.tsx file).
 */
function resolveSpecifier(rootDir: string, fromFile: string, specifier: string): string | null {
  let base: string;
  const workspaceEntry = WORKSPACE_PACKAGES[specifier];
  if (workspaceEntry) base = path.join(rootDir, workspaceEntry);
  else if (specifier.startsWith('~/')) base = path.join(rootDir, 'app', specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (SOURCE.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return null;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/**
 * Every static import and re-export from a module of `folders` (relative to `rootDir`) to a
 * module of the project, with paths relative to `rootDir`.
 */
export function importEdges(
  rootDir: string,
  folders: readonly string[] = CHECKED_FOLDERS,
): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of folders.flatMap((folder) => listSources(path.join(rootDir, folder)))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      const specifier = node.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const target = resolveSpecifier(rootDir, file, specifier.text);
      if (!target) continue;
      edges.push({
        from: path.relative(rootDir, file),
        to: path.relative(rootDir, target),
        typeOnly: isTypeOnly(node),
      });
    }
  }
  return edges;
}

/**
 * The strongly connected groups of the run-time import graph with more than one module (or a
 * module importing itself): each is at least one cycle. Sorted, for stable output.
 */
export function importCycles(edges: ImportEdge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to, typeOnly } of edges) {
    if (typeOnly) continue;
    graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const rootDir = fileURLToPath(new URL('..', import.meta.url));
  const cycles = importCycles(importEdges(rootDir));
  for (const group of cycles) console.log(`cycle: ${group.join(' <-> ')}`);
  console.log(
    `${cycles.length} import cycle(s) in ${CHECKED_FOLDERS.map((f) => `${f}/`).join(', ')}`,
  );
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
