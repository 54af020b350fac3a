import { z } from 'zod';

/**
 * The forms of /admin/fediverse (decision 053): block a domain, block an actor, unblock. Each
 * form posts its `intent`; the action parses with the intent's schema.
 */
const DOMAIN =
  /^(?:https?:\/\/)?@?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?\/?$/i;

export const BlockDomainSchema = z.object({
  intent: z.literal('block-domain'),
  domain: z
    .string({ required_error: 'Enter a domain' })
    .trim()
    .min(1, 'Enter a domain')
    .max(253, 'A domain has at most 253 characters')
    .regex(DOMAIN, 'Enter a domain such as mastodon.example'),
});

export const BlockActorSchema = z.object({
  intent: z.literal('block-actor'),
  actor: z
    .string({ required_error: "Enter the account's address" })
    .trim()
    .min(1, "Enter the account's address")
    .max(2048, 'An address has at most 2048 characters')
    .url('Enter the account’s address (https://…), as its server shows it')
    .refine((v) => /^https?:\/\//i.test(v), 'The address starts with https://'),
});

export const UnblockSchema = z.object({
  intent: z.literal('unblock'),
  kind: z.enum(['domain', 'actor']),
  value: z.string().trim().min(1).max(2048),
});

export const FEDIVERSE_INTENTS = ['block-domain', 'block-actor', 'unblock'] as const;
