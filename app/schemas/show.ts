import { z } from 'zod';
import { LIMITS, optionalText, requiredText } from './common';

const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

export const ShowSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  venue: requiredText('Venue is required', LIMITS.shortText),
  location: requiredText('Location is required', LIMITS.shortText),
  date: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'Date is required' })
      .min(1, 'Date is required')
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD')
      .refine(isRealDate, 'Date must be YYYY-MM-DD'),
  ),
  time: requiredText('Time is required', 40),
  ticketUrl: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .max(LIMITS.url, `Must be at most ${LIMITS.url} characters`)
      .url('Must be a valid URL')
      .refine((u) => /^https?:\/\//i.test(u), 'Must be a valid URL')
      .optional(),
  ),
  description: optionalText(LIMITS.description),
});
export type ShowInput = z.infer<typeof ShowSchema>;
