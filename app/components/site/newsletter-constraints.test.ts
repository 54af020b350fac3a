import { getZodConstraint } from '@conform-to/zod';
import { describe, expect, it } from 'vitest';

import { NewsletterFormSchema, NewsletterFullFormSchema } from '~/schemas/subscriber';

import { NEWSLETTER_CONSTRAINTS } from './newsletter-constraints';

describe('newsletter constraints (zod-free copy for the browser)', () => {
  it('match the full form schema', () => {
    expect(NEWSLETTER_CONSTRAINTS.full).toEqual(getZodConstraint(NewsletterFullFormSchema));
  });
  it('match the minimal form schema', () => {
    expect(NEWSLETTER_CONSTRAINTS.minimal).toEqual(getZodConstraint(NewsletterFormSchema));
  });
});
