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
export const action = async () => null;
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

describe('route modules export only what Remix reads', () => {
  it('lets Remix names, types and the default export through', async () => {
    for (const file of ['app/routes/_public+/shows.tsx', 'app/routes/admin+/settings/route.tsx']) {
      expect(await exportErrors(REMIX_ONLY, file), file).toEqual([]);
    }
  });

  it('refuses a constant, a function and a re-export of anything else', async () => {
    for (const file of ['app/routes/_public+/shows.tsx', 'app/routes/admin+/settings/route.tsx']) {
      const errors = await exportErrors(EXTRAS, file);
      expect(errors, file).toHaveLength(3);
      expect(errors[0]).toMatch(/exports only what Remix reads/);
    }
  });

  it('does not apply to the parts beside a folder route, nor outside routes', async () => {
    expect(await exportErrors(EXTRAS, 'app/routes/admin+/settings/font-select.tsx')).toEqual([]);
    expect(await exportErrors(EXTRAS, 'app/components/site/footer.tsx')).toEqual([]);
  });
});
