import type { Submission, SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { UPLOAD_LIMITS } from '~/files/uploads.server';
import { notFound } from '~/platform/http-errors.server';
import { finishUnreadBody } from '~/platform/request-body.server';
import type { SaveClient, SaveResult, SaveTarget, TextFields } from '~/services/upload-save.server';
import type { UserJSON } from '~/types/entities';
import type { FieldErrors } from '~/types/forms';
import type { ToastInput, ToastNotice } from '~/types/toast';
import { errorMessage } from '~/utils/error-message';

/**
 * `requireAdmin` for the upload actions. A refused request's body is read and dropped before
 * the redirect goes out (`finishUnreadBody`): answering while the client is still sending
 * makes the server reset the connection, and the client would see a network error, not the
 * redirect.
 */
export async function requireAdminForUpload(request: Request): Promise<UserJSON> {
  try {
    return await requireAdmin(request);
  } catch (error) {
    if (error instanceof Response) throw await finishUnreadBody(request, error);
    throw error;
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

// ---------------------------------------------------------------------------------------
// The admin forms (tracks, gallery, blog) over the shared save flow (app/services)
// ---------------------------------------------------------------------------------------

export type FormSubmission = Submission<unknown, string[], unknown>;

/**
 * The forms' side of the save flow: fields validated by conform (its coercion, and the
 * submission the form is answered with), absent fields take their defaults (the form
 * always sends them).
 */
export const FORM_CLIENT: SaveClient<FormSubmission> = {
  readFields(schema, fields) {
    const formData = new FormData();
    for (const [name, value] of Object.entries(fields)) formData.append(name, value);
    const submission = parseWithZod(formData, { schema });
    if (submission.status === 'success') return { ok: true, value: submission.value, submission };
    const errors: FieldErrors = {};
    for (const [name, messages] of Object.entries(submission.error ?? {}))
      if (messages) errors[name] = messages;
    return { ok: false, errors, submission };
  },
  keepUnsent: false,
};

/** FORM_CLIENT with the text fields changed before they are validated. */
export const withFields = (
  client: SaveClient<FormSubmission>,
  change: (fields: TextFields) => TextFields,
): SaveClient<FormSubmission> => ({
  ...client,
  readFields: (schema, fields) => client.readFields(schema, change(fields)),
});

/** An entity's texts on its admin form. */
export type FormTexts<R> = {
  failed: { create: string; update: string };
  /** The 404 page for an unknown id; the form error when the record went away meanwhile. */
  notFound: string;
  /** The alert and toast when a required file was not chosen. */
  missingFiles: ToastNotice;
  /** The per-file messages as the form shows them (default: the upload parser's). */
  fileErrors?: (errors: FieldErrors) => FieldErrors;
  /** The form's message for a `conflict` (a taken slug). */
  conflict?: string;
  saved: { create: (record: R) => ToastNotice; update: (record: R) => ToastNotice };
};

function uploadRefusalMessage(reason: 'payload-too-large' | 'unsupported-type' | 'malformed') {
  if (reason === 'payload-too-large')
    return `The upload is too large (at most ${Math.round(UPLOAD_LIMITS.body / 1024 / 1024)} MB in total).`;
  if (reason === 'unsupported-type')
    return 'The form was not sent as a file upload. Please try again.';
  return 'The upload was incomplete. Please try again.';
}

/**
 * A save result as the admin form's answer: a redirect to the list with a success toast;
 * the form with its errors (400; the body's own status when it was refused as a whole);
 * a 404 page for an unknown id.
 */
export async function answerForm<R>(
  result: SaveResult<R, FormSubmission>,
  target: SaveTarget,
  texts: FormTexts<R>,
  listUrl: string,
) {
  const mode = target.mode;
  if (result.ok) {
    return redirectWithToast(listUrl, { type: 'success', ...texts.saved[mode](result.record) });
  }
  if (result.reason === 'not-found') throw notFound(texts.notFound);

  const failTitle = texts.failed[mode];
  const answer = (reply: SubmissionResult<string[]>, alert: ToastNotice, status = 400) =>
    data<FormActionResult>(
      { result: reply, alertTitle: alert.title, toast: errorToast(alert.title, alert.description) },
      { status },
    );
  const failure = (description: string): ToastNotice => ({ title: failTitle, description });

  if (!('submission' in result)) {
    const message = uploadRefusalMessage(result.reason);
    return answer({ status: 'error', error: { '': [message] } }, failure(message), result.status);
  }
  const { submission } = result;
  switch (result.reason) {
    case 'invalid': {
      const fieldErrors = texts.fileErrors?.(result.fileErrors) ?? result.fileErrors;
      const missing = result.missingFiles ? texts.missingFiles : null;
      const first =
        Object.values(fieldErrors).flat()[0] ??
        Object.values(submission.status === 'error' ? (submission.error ?? {}) : {}).flat()[0];
      return answer(
        submission.reply({
          fieldErrors,
          formErrors: missing ? [missing.description] : undefined,
        }),
        missing ?? failure(first ?? 'Please check the form'),
      );
    }
    case 'conflict': {
      const message = texts.conflict ?? result.message;
      return answer(
        submission.reply({ fieldErrors: { [result.field]: [message] } }),
        failure(message),
      );
    }
    case 'gone':
    case 'failed': {
      const message = result.reason === 'gone' ? texts.notFound : errorMessage(result.error);
      return answer(submission.reply({ formErrors: [message] }), failure(message));
    }
  }
}
