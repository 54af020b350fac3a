import { describe, expect, it } from 'vitest';
import { FORM_BODY_LIMIT, guardedFormData } from './request-body.server';

const post = (body: BodyInit | null, type?: string) =>
  new Request('http://localhost/contact', {
    method: 'POST',
    body,
    headers: type ? { 'Content-Type': type } : {},
  });

async function refusal(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
  return 0;
}

describe('guardedFormData', () => {
  it('reads ordinary forms', async () => {
    const form = await guardedFormData(
      post('name=Zo%C3%AB&x=%3Cb%3E', 'application/x-www-form-urlencoded'),
    );
    expect(form.get('name')).toBe('Zoë');
    expect(form.get('x')).toBe('<b>');
    const fd = new FormData();
    fd.set('a', 'b');
    const req = new Request('http://localhost/', { method: 'POST', body: fd });
    expect((await guardedFormData(req)).get('a')).toBe('b');
  });

  it('answers 415 for bodies that are not forms', async () => {
    expect(await refusal(guardedFormData(post('{"a":1}', 'application/json')))).toBe(415);
    expect(await refusal(guardedFormData(post('a=1', 'text/plain')))).toBe(415);
    expect(await refusal(guardedFormData(post('a=1')))).toBe(415);
  });

  it('answers 413 over the limit and 400 for a broken multipart body', async () => {
    const big = `a=${'x'.repeat(FORM_BODY_LIMIT)}`;
    expect(await refusal(guardedFormData(post(big, 'application/x-www-form-urlencoded')))).toBe(
      413,
    );
    const truncated = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue';
    expect(await refusal(guardedFormData(post(truncated, 'multipart/form-data; boundary=b')))).toBe(
      400,
    );
  });
});
