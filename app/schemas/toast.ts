import { z } from 'zod';

/**
 * A toast, as the flash cookie carries it (app/auth/toast.server.ts validates it on the way
 * in and out) and as the toaster shows it. Every toast type in app/types/toast.ts is derived
 * from this one schema.
 */
export const ToastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
});
