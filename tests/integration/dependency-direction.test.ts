import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { CHECKED_FOLDERS, importCycles, importEdges } from '../../scripts/import-cycles';

/**
 * The dependency rules of eslint.dependency-direction.js, run through the project's own ESLint
 * config on small snippets placed (in name only) in each folder of app/.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}eslint.config.js` });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => `${m.severity === 2 ? 'error' : 'warning'}: ${m.message}`);
}

describe('dependency direction (lint)', () => {
  it.each([
    [
      'a model importing a component',
      'app/models/x.server.ts',
      "import { Button } from '~/components/ui/button';\nexport const b = Button;\n",
    ],
    [
      'a model importing a service',
      'app/models/x.server.ts',
      "import { saveTrack } from '~/services/track-save.server';\nexport const s = saveTrack;\n",
    ],
    [
      'a model importing the seeding',
      'app/models/x.server.ts',
      "import { seedIfEmpty } from '~/platform/seed.server';\nexport const s = seedIfEmpty;\n",
    ],
    [
      'a component importing ~/root',
      'app/components/site/x.tsx',
      "import { useRootData } from '~/root';\nexport const u = useRootData;\n",
    ],
    [
      'a component importing a model',
      'app/components/site/x.tsx',
      "import { listTracks } from '~/models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'a component importing a *.server module',
      'app/player/x.tsx',
      "import { env } from '~/platform/env.server';\nexport const e = env;\n",
    ],
    [
      'a utils module importing a model',
      'app/utils/x.ts',
      "import { listTracks } from '~/models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'a schema importing a component',
      'app/schemas/x.ts',
      "import { cn } from '~/components/ui/button';\nexport const c = cn;\n",
    ],
    [
      'a service importing a component',
      'app/services/x.server.ts',
      "import { MISSING } from '~/components/admin/track-form';\nexport const m = MISSING;\n",
    ],
    [
      'files/ importing a component type',
      'app/files/x.server.ts',
      "import type { Props } from '~/components/ui/responsive-image';\nexport type P = Props;\n",
    ],
    [
      'server/ importing a route',
      'app/platform/x.server.ts',
      "import { loader } from '~/routes/_feeds+/healthz';\nexport const l = loader;\n",
    ],
    [
      'server/ importing a model',
      'app/platform/x.server.ts',
      "import { listTracks } from '~/models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'api/ importing a service',
      'app/api/x.server.ts',
      "import { saveTrack } from '~/services/track-save.server';\nexport const s = saveTrack;\n",
    ],
    [
      'a route importing ~/root values',
      'app/routes/x.tsx',
      "import { loader } from '~/root';\nexport const l = loader;\n",
    ],
    [
      'a relative path into another folder',
      'app/routes/x.tsx',
      "import { listTracks } from '../models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'a route in a folder importing ~/root values',
      'app/routes/admin+/x.tsx',
      "import { loader } from '~/root';\nexport const l = loader;\n",
    ],
    [
      'a relative path out of a route folder into another folder of app/',
      'app/routes/admin+/settings/x.tsx',
      "import { listTracks } from '../../../models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'a service importing the embed layer',
      'app/services/x.server.ts',
      "import { embedResponse } from '~/embed/page.server';\nexport const e = embedResponse;\n",
    ],
    [
      'a model importing the podcast layer',
      'app/models/x.server.ts',
      "import { privateFeedUrl } from '~/podcast/podcast.server';\nexport const p = privateFeedUrl;\n",
    ],
    [
      'the embed layer importing a route',
      'app/embed/x.server.ts',
      "import { loader } from '~/routes/_feeds+/oembed';\nexport const l = loader;\n",
    ],
    [
      'the podcast layer importing a component',
      'app/podcast/x.server.ts',
      "import { Button } from '~/components/ui/button';\nexport const b = Button;\n",
    ],
    [
      "the embed frame's script importing a *.server module",
      'app/embed/player.ts',
      "import { env } from '~/platform/env.server';\nexport const e = env;\n",
    ],
    [
      "the embed frame's script importing a model",
      'app/embed/player.ts',
      "import type { TrackDoc } from '~/models/track.server';\nexport type T = TrackDoc;\n",
    ],
    [
      'a route formatting with date-fns',
      'app/routes/x.tsx',
      "import { format } from 'date-fns';\nexport const f = format;\n",
    ],
  ])('%s is an error', async (_what, filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^error: /);
  });

  it.each([
    [
      'a route importing a model, a service and a component',
      'app/routes/x.tsx',
      "import { listTracks } from '~/models/track.server';\nimport { saveTrack } from '~/services/track-save.server';\nimport { Button } from '~/components/ui/button';\nexport const all = [listTracks, saveTrack, Button];\n",
    ],
    [
      'a service importing a model, files/ and a schema',
      'app/services/x.server.ts',
      "import { listTracks } from '~/models/track.server';\nimport { parseMultipartUpload } from '~/files/uploads.server';\nimport { MISSING_FILES } from '~/schemas/track';\nexport const all = [listTracks, parseMultipartUpload, MISSING_FILES];\n",
    ],
    [
      'a model importing db, stored files, a schema and a model',
      'app/models/x.server.ts',
      "import { connectDb } from '~/platform/db.server';\nimport { deleteUploadedFile } from '~/files/stored-files.server';\nimport { LIMITS } from '~/schemas/common';\nimport { getTheme } from '~/models/theme.server';\nexport const all = [connectDb, deleteUploadedFile, LIMITS, getTheme];\n",
    ],
    [
      'a component reading root data and a schema',
      'app/components/site/x.tsx',
      "import { useRootData } from '~/document/use-root-data';\nimport { LIMITS } from '~/schemas/common';\nexport const all = [useRootData, LIMITS];\n",
    ],
    [
      'a type-only import of ~/root',
      'app/document/x.ts',
      "import type { loader } from '~/root';\nexport type L = typeof loader;\n",
    ],
    [
      'a utils module importing types and utils',
      'app/utils/x.ts',
      "import type { TrackJSON } from '~/types/entities';\nimport { cn } from '~/utils/cn';\nexport const c: (t: TrackJSON) => string = () => cn('a');\n",
    ],
    [
      'the seeding importing models',
      'app/platform/seed.server.ts',
      "import { listTracks } from '~/models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'the embed layer importing a service, a model and the leaves',
      'app/embed/x.server.ts',
      "import { playToken } from '~/services/play-token.server';\nimport { getTrack } from '~/models/track.server';\nimport { escapeHtml } from '~/utils/html';\nexport const all = [playToken, getTrack, escapeHtml];\n",
    ],
    [
      'a route importing the podcast layer',
      'app/routes/_feeds+/x.ts',
      "import { publicPodcastXml } from '~/podcast/podcast.server';\nexport const p = publicPodcastXml;\n",
    ],
    [
      'a test in a route folder reaching tests/ by a relative path',
      'app/routes/_feeds+/x.test.ts',
      "import { setupTestDatabase } from '../../../tests/helpers/test-db';\nexport const s = setupTestDatabase;\n",
    ],
    [
      'a test reaching across layers',
      'app/utils/x.test.ts',
      "import { listTracks } from '~/models/track.server';\nexport const l = listTracks;\n",
    ],
    [
      'a test using date-fns as an oracle',
      'app/utils/x.test.ts',
      "import { format } from 'date-fns';\nexport const f = format;\n",
    ],
  ])('%s is allowed', async (_what, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});

describe('import cycles', () => {
  const edges = importEdges(root);
  const cycles = importCycles(edges);

  it('reads app/, server/, embedded-mongo/ and scripts/', () => {
    expect(CHECKED_FOLDERS).toEqual(['app', 'server', 'embedded-mongo', 'scripts']);
  });

  // At least this many imports are read from each folder, so an empty graph cannot pass.
  it.each([
    ['app', 500],
    ['server', 3],
    ['embedded-mongo', 100],
    ['scripts', 20],
  ])('%s/ has none (type-only imports excepted: the compiler erases them)', (folder, least) => {
    const inFolder = (module: string) => module.startsWith(`${folder}/`);
    expect(edges.filter((e) => inFolder(e.from)).length).toBeGreaterThan(least);
    expect(cycles.filter((group) => group.some(inFolder))).toEqual([]);
  });

  it('follows server/ into app/ (`~/`) and into the store (its package name)', () => {
    expect(edges).toContainEqual({
      from: 'server/primary.ts',
      to: 'app/platform/env.server.ts',
      typeOnly: false,
    });
    expect(edges).toContainEqual({
      from: 'server/primary.ts',
      to: 'embedded-mongo/index.ts',
      typeOnly: false,
    });
  });

  it('finds a cycle, and ignores one closed by a type-only import', () => {
    const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly });
    expect(importCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([
      ['a', 'b', 'c'],
    ]);
    expect(importCycles([edge('root', 'shell'), edge('shell', 'root', true)])).toEqual([]);
    expect(importCycles([edge('self', 'self')])).toEqual([['self']]);
    expect(
      importCycles([
        edge('a', 'b'),
        edge('b', 'a'),
        edge('c', 'd'),
        edge('d', 'c'),
        edge('b', 'c'),
      ]),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('finds cycles through route folders (`+`, `$`, `[.]` in the names; decision 052)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-routes-'));
    try {
      const files: Record<string, string> = {
        'app/routes/_feeds+/uploads.$.ts': "import { x } from '~/x';\nexport const u = x;\n",
        'app/x.ts':
          "import { u } from '~/routes/_feeds+/uploads.$';\nexport const x = 1;\nexport const y = u;\n",
        'app/routes/admin+/settings/route.tsx':
          "import { part } from './part';\nexport const r = part;\n",
        'app/routes/admin+/settings/part.ts':
          "import { r } from './route';\nexport const part = 1;\nexport const q = r;\n",
        'app/routes/_feeds+/podcast[.]xml.ts':
          "import { x } from '../../x';\nexport const p = x;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      }
      const found = importEdges(dir, ['app']);
      expect(found).toContainEqual({
        from: 'app/routes/_feeds+/podcast[.]xml.ts',
        to: 'app/x.ts',
        typeOnly: false,
      });
      const cycles = importCycles(found);
      expect(cycles).toHaveLength(2);
      expect(cycles).toEqual(
        expect.arrayContaining([
          ['app/routes/_feeds+/uploads.$.ts', 'app/x.ts'],
          ['app/routes/admin+/settings/part.ts', 'app/routes/admin+/settings/route.tsx'],
        ]),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves `~/`, relative paths, re-exports and the workspace package in a small tree', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
    try {
      const files: Record<string, string> = {
        'app/a.ts': "import { b } from '~/b';\nexport const a = b;\n",
        'app/b.ts': "import type { A } from './c';\nexport const b: A | 1 = 1;\n",
        'app/c.ts': "import { a } from './a';\nexport type A = typeof a;\n",
        'server/s.ts':
          "import { x } from '@night-shore/embedded-mongo';\nimport { a } from '~/a';\nimport express from 'express';\nexport const s = [x, a, express];\n",
        'embedded-mongo/index.ts': "export { y as x } from './y';\n",
        'embedded-mongo/y.ts': "import './index';\nexport const y = 1;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      }
      const found = importEdges(dir, ['app', 'server', 'embedded-mongo']);
      const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly });
      expect(found).toEqual(
        expect.arrayContaining([
          edge('app/a.ts', 'app/b.ts'),
          edge('app/b.ts', 'app/c.ts', true),
          edge('app/c.ts', 'app/a.ts'),
          edge('server/s.ts', 'embedded-mongo/index.ts'),
          edge('server/s.ts', 'app/a.ts'),
          edge('embedded-mongo/index.ts', 'embedded-mongo/y.ts'),
          edge('embedded-mongo/y.ts', 'embedded-mongo/index.ts'),
        ]),
      );
      expect(found).toHaveLength(7);
      expect(importCycles(found)).toEqual([['embedded-mongo/index.ts', 'embedded-mongo/y.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
