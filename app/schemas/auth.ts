import { z } from 'zod';

import { LIMITS } from './common';

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

const password = (message: string, min: number) =>
  z
    .string({ required_error: message })
    .min(min, message)
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`);

/** A password typed to prove who one is (logging in, deleting the account). */
export const passwordField = (message = 'Password is required') => password(message, 1);

/** A password being chosen (registering, changing it): 6 characters at least. */
export const newPasswordField = () => password('Password must be at least 6 characters', 6);

const PASSWORDS_DIFFER = "Passwords don't match";

/** The new password typed again: `confirmMatches` checks it against the password. */
export const confirmPasswordField = () =>
  z
    .string({ required_error: PASSWORDS_DIFFER })
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`);

/** The refinement's answer when the confirmation differs: an error on `confirmPassword`. */
export const CONFIRM_DIFFERS = { message: PASSWORDS_DIFFER, path: ['confirmPassword'] };

export const LoginSchema = z.object({
  username: z.preprocess(
    trimmed,
    z
      .string({ required_error: 'Username is required' })
      .min(1, 'Username is required')
      .max(LIMITS.username, `Must be at most ${LIMITS.username} characters`),
  ),
  password: passwordField(),
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
  password: newPasswordField(),
});

/** The register form: the confirm field is checked here and never sent further. */
export const RegisterSchema = RegisterFields.extend({
  confirmPassword: confirmPasswordField(),
  redirectTo: z.string().max(LIMITS.url).optional(),
}).refine((d) => d.password === d.confirmPassword, CONFIRM_DIFFERS);
