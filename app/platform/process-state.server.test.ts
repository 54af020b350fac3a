import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

declare module './process-state.server' {
  interface ProcessStateRegistry {
    processStateTest: { made: number };
  }
}

const HOLDER_FILE = path.join('app', 'platform', 'process-state.server.ts');

/** Every TypeScript and JavaScript source of the app and the server, this test excepted. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [file] : [];
  });
}

describe('process state (one typed holder)', () => {
  it('gives every caller, and every later evaluation of the module, the same value', async () => {
    const first = await import('./process-state.server');
    let made = 0;
    const a = first.processSingleton('processStateTest', () => ({ made: ++made }));
    // The dev server evaluates the build again after a rebuild: a fresh copy of every module.
    vi.resetModules();
    const second = await import('./process-state.server');
    expect(second).not.toBe(first);
    const b = second.processSingleton('processStateTest', () => ({ made: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
    expect(second.peekProcessSingleton('processStateTest')).toBe(a);
    second.forgetProcessSingleton('processStateTest');
    expect(second.peekProcessSingleton('processStateTest')).toBeUndefined();
    expect(second.processSingleton('processStateTest', () => ({ made: ++made })).made).toBe(2);
    second.forgetProcessSingleton('processStateTest');
  });

  it('is the only file of app/ and server/ that touches globalThis', () => {
    const files = [...sources('app'), ...sources('server')].filter(
      (file) => file !== HOLDER_FILE && !file.endsWith('process-state.server.test.ts'),
    );
    const offenders = files.filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      // Any use of `globalThis` (a cast slips past a narrower pattern), `global.__x`, or a
      // `var` declared global.
      return (
        /\bglobalThis\b/.test(text) ||
        /\bglobal\s*(\.\s*|\[\s*['"`])__/.test(text) ||
        /declare\s+global\s*\{[^}]*\bvar\s/.test(text)
      );
    });
    expect(offenders, 'use processSingleton (app/platform/process-state.server.ts)').toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});
