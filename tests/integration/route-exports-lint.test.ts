import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule "a route module exports only what Remix reads" (eslint.config.js): an extra
 * export from a route module is an error; Remix's own names, types and the parts that live
 * beside a folder route are not.
 */

const eslint = new ESLint({ cwd: process.cwd() });

async function exportErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const REMIX_ONLY = `
export async function loader() { return null; }
export function action() { return null; }
export const meta = () => [];
export const handle = { id: 'x' };
export function ErrorBoundary() { return null; }
export type LoaderData = { id: number };
export default function Page() { return null; }
`;

const EXTRAS = `
export const SOME_TEXT = 'a text a test might want';
export function helper() { return 1; }
const local = 2;
export { local };
export default function Page() { return null; }
`;

/** A route module in each kind of place (decision 052): a `+` folder's file, a folder route. */
const ROUTE_FILES = [
  'app/routes/_public+/shows.tsx',
  'app/routes/admin+/tracks.$id.edit.tsx',
  'app/routes/api+/tracks._index.ts',
  'app/routes/_feeds+/podcast[.]xml.ts',
  'app/routes/admin+/settings/route.tsx',
  'app/routes/_account+/auth/route.tsx',
];

describe('route modules export only what Remix reads', () => {
  it('lets Remix names, types and the default export through', async () => {
    for (const file of ROUTE_FILES) {
      expect(await exportErrors(REMIX_ONLY, file), file).toEqual([]);
    }
  });

  it('refuses a constant, a function and a re-export of anything else', async () => {
    for (const file of ROUTE_FILES) {
      const errors = await exportErrors(EXTRAS, file);
      expect(errors, file).toHaveLength(3);
      expect(errors[0]).toMatch(/exports only what Remix reads/);
    }
  });

  it('does not apply to the parts beside a folder route, nor outside routes', async () => {
    expect(await exportErrors(EXTRAS, 'app/routes/admin+/settings/font-select.tsx')).toEqual([]);
    expect(await exportErrors(EXTRAS, 'app/routes/admin+/newsletter/export.server.ts')).toEqual([]);
    expect(await exportErrors(EXTRAS, 'app/components/site/footer.tsx')).toEqual([]);
  });
});

describe('one loader style (decision 052)', () => {
  const ARROWS = `
export const loader = async () => null;
export const action = () => null;
export default function Page() { return null; }
`;
  it('refuses an exported arrow as loader or action, in every kind of route module', async () => {
    for (const file of ROUTE_FILES) {
      const errors = await exportErrors(ARROWS, file);
      expect(errors, file).toHaveLength(2);
      expect(errors[0]).toMatch(/function declarations/);
    }
  });
});
