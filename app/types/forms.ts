import type { SubmissionResult } from '@conform-to/react';

import type { ToastInput } from './toast';

/** Messages per field name: what conform's `reply` and the /api `{ error, fields }` answers carry. */
export type FieldErrors = Record<string, string[]>;

/**
 * What an admin upload form's action answers when the save did not go through (the add and edit
 * routes of tracks, gallery images and blog posts): conform's result, the title of the form's
 * alert and a toast for JavaScript users.
 */
export type FormActionResult = {
  result: SubmissionResult<string[]>;
  /** Title of the form-level alert (e.g. 'Missing files', 'Failed to create track'). */
  alertTitle?: string;
  toast?: ToastInput;
};
