import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule behind "one way to read a request" (eslint.config.js): reading a body
 * with the Fetch API's own methods is an error in app/ outside the reader module.
 */

const eslint = new ESLint({ cwd: process.cwd() });

async function bodyReadErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const ROUTE = `
export async function action({ request }: { request: Request }) {
  const a = await request.formData();
  const b = await request.json();
  const c = await request.text();
  const d = await request.arrayBuffer();
  const e = await request.clone().formData();
  const f = request.body;
  return [a, b, c, d, e, f];
}
`;

describe('request bodies are read only through app/platform/request-body.server.ts', () => {
  it('forbids the Fetch API readers in routes, services and the API plumbing', async () => {
    for (const file of [
      'app/routes/_public+/contact.tsx',
      'app/routes/api+/contact.ts',
      'app/services/public-forms.server.ts',
      'app/api/api.server.ts',
    ]) {
      const errors = await bodyReadErrors(ROUTE, file);
      expect(errors, file).toHaveLength(6);
      expect(errors[0]).toMatch(/readForm\/readJson\/readMultipart/);
    }
  });

  it('allows them in the reader module, and on answers (a Response is not a request)', async () => {
    expect(await bodyReadErrors(ROUTE, 'app/platform/request-body.server.ts')).toEqual([]);
    const answer = `export async function f(response: Response) { return response.text(); }`;
    expect(await bodyReadErrors(answer, 'app/api/api.server.ts')).toEqual([]);
  });
});
