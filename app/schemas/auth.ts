import { z } from 'zod';

import { LIMITS } from './common';

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const LoginSchema = z.object({
  username: z.preprocess(
    trimmed,
    z
      .string({ required_error: 'Username is required' })
      .min(1, 'Username is required')
      .max(LIMITS.username, `Must be at most ${LIMITS.username} characters`),
  ),
  password: z
    .string({ required_error: 'Password is required' })
    .min(1, 'Password is required')
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
  redirectTo: z.string().max(LIMITS.url).optional(),
});

export const RegisterFields = z.object({
  username: z.preprocess(
    trimmed,
    z
      .string({ required_error: 'Username must be at least 3 characters' })
      .min(3, 'Username must be at least 3 characters')
      .max(LIMITS.username, `Must be at most ${LIMITS.username} characters`)
      .regex(
        /^[\p{L}\p{N}_.-]+$/u,
        'Username may contain only letters, numbers, dots, hyphens and underscores',
      ),
  ),
  password: z
    .string({ required_error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
});

/** The register form: the confirm field is checked here and never sent further. */
export const RegisterSchema = RegisterFields.extend({
  confirmPassword: z
    .string({ required_error: "Passwords don't match" })
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
  redirectTo: z.string().max(LIMITS.url).optional(),
}).refine((d) => d.password === d.confirmPassword, {
  message: "Passwords don't match",
  path: ['confirmPassword'],
});
