import { z } from 'zod';
import { LIMITS } from '~/schemas/form-constants';

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
