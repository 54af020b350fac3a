import { z } from 'zod';

import { LIMITS } from '~/schemas/form-constants';
import { VISIBILITIES } from '~/types/entities';

/**
 * Field bounds (LIMITS) and the honeypot field name live in a zod-free module so client code can
 * use them without bundling zod; re-exported here for the schemas.
 */
export { LIMITS } from '~/schemas/form-constants';
export { HONEYPOT_FIELD } from '~/schemas/honeypot-field';

/** A trimmed, required string ("   " counts as empty). */
export const requiredText = (message: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: message, invalid_type_error: message })
      .min(1, message)
      .max(max, `Must be at most ${max} characters`),
  );

/** A trimmed optional string: empty becomes undefined. */
export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z.string().max(max, `Must be at most ${max} characters`).optional(),
  );

export const emailField = (message = 'Invalid email') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: message, invalid_type_error: message })
      .min(1, message)
      .max(LIMITS.email, `Must be at most ${LIMITS.email} characters`)
      .email(message),
  );

export const VISIBILITY_MESSAGE = 'Visibility must be "public" or "members"';
export const PUBLIC_AT_MESSAGE = 'Public on must be a date (YYYY-MM-DD)';

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
function isCalendarDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * Who may play a track or read a post (decision 017), shared by the admin forms and the
 * admin API: `visibility` ("public" by default) and, for members-only items, `publicAt`: the
 * day they turn public (early access; empty = members-only for good).
 */
export const visibilityFields = {
  visibility: z
    .enum(VISIBILITIES, { errorMap: () => ({ message: VISIBILITY_MESSAGE }) })
    .default('public'),
  publicAt: z.preprocess(
    (v) =>
      typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v === null ? undefined : v,
    z
      .string({ invalid_type_error: PUBLIC_AT_MESSAGE })
      .regex(/^\d{4}-\d{2}-\d{2}$/, PUBLIC_AT_MESSAGE)
      .refine(isCalendarDay, PUBLIC_AT_MESSAGE)
      .optional(),
  ),
};
