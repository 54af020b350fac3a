import type { z } from 'zod';

import type { ToastSchema } from '~/schemas/toast';

/** A toast on screen (the toaster shows one at a time): every field filled in. */
export type ToastMessage = z.infer<typeof ToastSchema>;
export type ToastType = ToastMessage['type'];
/** What code asks to show: `id` and `type` have defaults (a fresh id, 'success'). */
export type ToastInput = z.input<typeof ToastSchema>;
/** A toast's texts with a description (an alert's title and message, a saved notice). */
export type ToastNotice = Required<Pick<ToastMessage, 'title' | 'description'>>;
/** A failure's toast, as a form action returns it. */
export type ErrorToast = ToastNotice & { type: Extract<ToastType, 'error'> };
