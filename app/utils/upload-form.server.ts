import type { SubmissionResult } from '@conform-to/react';
import type { ToastInput } from '~/components/site/toaster';
import {
  UPLOAD_LIMITS,
  parseMultipartUpload,
  type ParsedUpload,
  type UploadSpec,
} from './uploads.server';
import type { UserJSON } from '~/types/entities';
import { requireAdmin } from './auth.server';

/** Read and discard a request body, up to `limit` bytes (then stop reading). */
async function drainBody(request: Request, limit: number): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to drain.
  }
}

/**
 * `requireAdmin` for the upload actions. A refused request's body is read (up to the upload
 * cap) before the redirect goes out: answering while the client is still sending makes the
 * server reset the connection, and the client would see a network error, not the redirect.
 */
export async function requireAdminForUpload(request: Request): Promise<UserJSON> {
  try {
    return await requireAdmin(request);
  } catch (error) {
    await drainBody(request, UPLOAD_LIMITS.body);
    throw error;
  }
}

/**
 * Glue between the streaming upload parser and the admin forms (tracks, gallery, blog).
 * A body-level refusal (too large, not multipart, cut off) becomes a form error with the
 * right status instead of an error page, so the admin sees it next to the form.
 */
export type UploadFormRead =
  | ({ ok: true; formData: FormData } & ParsedUpload)
  | { ok: false; status: number; message: string };

export async function readUploadForm(request: Request, spec: UploadSpec): Promise<UploadFormRead> {
  try {
    const parsed = await parseMultipartUpload(request, spec);
    const formData = new FormData();
    for (const [name, value] of Object.entries(parsed.fields)) formData.append(name, value);
    return { ok: true, formData, ...parsed };
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    const message =
      error.status === 413
        ? `The upload is too large (at most ${Math.round(UPLOAD_LIMITS.body / 1024 / 1024)} MB in total).`
        : error.status === 415
          ? 'The form was not sent as a file upload. Please try again.'
          : 'The upload was incomplete. Please try again.';
    return { ok: false, status: error.status, message };
  }
}

/** What an admin form action answers on failure: conform's result plus a toast for JS users. */
export type FormActionResult = {
  result: SubmissionResult<string[]>;
  /** Title of the form-level alert (e.g. 'Missing files', 'Failed to create track'). */
  alertTitle?: string;
  toast?: ToastInput;
};

export const errorToast = (title: string, description: string): ToastInput => ({
  id: Math.random().toString(36).slice(2),
  type: 'error',
  title,
  description,
});

/** A message from an unexpected error, safe enough to show to an administrator. */
export const errorMessage = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'Unknown error';
