import { z } from 'zod';

import { LIMITS, optionalText, requiredText } from './common';

const isRealDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** An absolute http(s) URL. */
const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
  } catch {
    return false;
  }
};

export const MAX_GUEST_LIST = 5000;
export const GUEST_LIST_CAPACITY_MESSAGE = `Guest list spots must be a whole number from 0 to ${MAX_GUEST_LIST}`;

export const ShowSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  venue: requiredText('Venue is required', LIMITS.shortText),
  location: requiredText('Location is required', LIMITS.shortText),
  date: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'Date is required' })
      .min(1, 'Date is required')
      // One message per problem: empty is 'Date is required' only.
      .refine((d) => d === '' || isRealDate(d), 'Date must be YYYY-MM-DD'),
  ),
  time: requiredText('Time is required', 40),
  ticketUrl: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .max(LIMITS.url, `Must be at most ${LIMITS.url} characters`)
      // One check (not .url() plus a refine) so a bad value gets the message once.
      .refine(isHttpUrl, 'Must be a valid URL')
      .optional(),
  ),
  description: optionalText(LIMITS.description),
  guestListCapacity: z.preprocess(
    // An emptied form field means no guest list; a JSON body without the key keeps it.
    (v) => (v === '' ? 0 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ invalid_type_error: GUEST_LIST_CAPACITY_MESSAGE })
      .int(GUEST_LIST_CAPACITY_MESSAGE)
      .min(0, GUEST_LIST_CAPACITY_MESSAGE)
      .max(MAX_GUEST_LIST, GUEST_LIST_CAPACITY_MESSAGE)
      .optional(),
  ),
});
export type ShowInput = z.infer<typeof ShowSchema>;
