import type { FieldConstraint } from './server-form';

/**
 * The HTML constraints of the newsletter forms, as `getZodConstraint` derives them from
 * `NewsletterFullFormSchema` / `NewsletterFormSchema` (LIMITS.name 100, LIMITS.email 254).
 * Written out so the form ships without conform, zod or the shared LIMITS chunk (page-weight
 * budget: 120 KB of JS); newsletter-constraints.test.ts keeps them equal to the schemas. Validation
 * itself runs on the server with the schemas.
 */
export const NEWSLETTER_CONSTRAINTS: Record<
  'full' | 'minimal',
  Record<'name' | 'email' | 'privacy', FieldConstraint>
> = {
  full: {
    name: { required: true, minLength: 1, maxLength: 100 },
    email: { required: true, minLength: 1, maxLength: 254 },
    privacy: { required: true },
  },
  minimal: {
    name: { required: false, maxLength: 100 },
    email: { required: true, minLength: 1, maxLength: 254 },
    privacy: { required: true },
  },
};
