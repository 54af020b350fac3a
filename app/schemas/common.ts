import { z } from 'zod';

/**
 * Field bounds shared by every schema (enforced on the server, mirrored as HTML
 * constraints on the client through conform's getZodConstraint).
 */
export const LIMITS = {
  name: 100,
  email: 254,
  subject: 200,
  message: 5_000,
  title: 200,
  shortText: 200,
  description: 2_000,
  excerpt: 300,
  blogContent: 100_000,
  url: 2_048,
  username: 50,
  password: 200,
} as const;

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

/** Form honeypot: a field real people never see or fill in. */
export const HONEYPOT_FIELD = 'website';
