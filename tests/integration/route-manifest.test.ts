import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readConfig } from '@remix-run/dev/dist/config.js';
import { ServerMode } from '@remix-run/dev/dist/config/serverModes.js';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The site's map of URLs, as Remix builds it from remix.config.js and app/routes: every route's
 * URL pattern, the route it is nested in, and what its module exports (loader, action, default,
 * ErrorBoundary, headers, meta, handle…). The snapshot beside this test is the contract: moving
 * route files between folders (decision 052) may change their ids and paths on disk, never this.
 * A route added or removed on purpose updates it with `npx vitest run <this file> -u`.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The value exports of a module (types are erased and do not count), sorted. */
function valueExports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const isDefault = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  for (const node of source.statements) {
    if (ts.isExportAssignment(node)) names.add('default');
    else if (ts.isExportDeclaration(node)) {
      if (node.isTypeOnly) continue;
      if (!node.exportClause)
        names.add(`* from ${(node.moduleSpecifier as ts.StringLiteral).text}`);
      else if (ts.isNamedExports(node.exportClause)) {
        for (const e of node.exportClause.elements) if (!e.isTypeOnly) names.add(e.name.text);
      }
    } else if (!exported(node)) continue;
    else if (isDefault(node)) names.add('default');
    else if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) {
      if (node.name) names.add(node.name.text);
    } else if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
      }
    }
  }
  return [...names].sort();
}

type Entry = { parent: string; exports: string[] };

/** Every route by its full URL pattern (`/admin/tracks/:id/edit`, `/admin (index)`). */
async function routeManifest(): Promise<Record<string, Entry>> {
  const config = await readConfig(root, ServerMode.Production);
  const routes = config.routes;
  const fullPath = (id: string): string => {
    const route = routes[id];
    if (!route) return '';
    const parent = route.parentId ? fullPath(route.parentId) : '';
    if (!route.path) return parent;
    return `${parent.replace(/\/$/, '')}/${route.path}`;
  };
  const keyOf = (id: string): string => {
    if (id === 'root') return 'root';
    const route = routes[id]!;
    const key = fullPath(id) || '/';
    return route.index ? `${key} (index)` : key;
  };
  const manifest: Record<string, Entry> = {};
  for (const id of Object.keys(routes).sort()) {
    if (id === 'root') continue;
    const route = routes[id]!;
    const key = keyOf(id);
    expect(manifest[key], `two routes answer ${key}`).toBeUndefined();
    manifest[key] = {
      parent: keyOf(route.parentId ?? 'root'),
      exports: valueExports(path.join(config.appDirectory, route.file)),
    };
  }
  return Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
}

describe('the route manifest', () => {
  it('keeps every URL, its nesting and its module’s exports', async () => {
    const manifest = await routeManifest();
    expect(Object.keys(manifest).length).toBeGreaterThan(100);
    await expect(`${JSON.stringify(manifest, null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/route-manifest.json',
    );
  });
});
