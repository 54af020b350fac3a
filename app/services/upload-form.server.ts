import type { Submission, SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';

import { redirectWithToast } from '~/auth/toast.server';
import { UPLOAD_LIMITS } from '~/files/uploads.server';
import { catchServerFailure, notFound, reportServerFailure } from '~/platform/http-errors.server';
import type { FieldErrors, FormActionResult } from '~/types/forms';
import type { SaveClient, SaveResult, SaveTarget, TextFields } from '~/types/save-flow';
import type { ToastInput, ToastNotice } from '~/types/toast';

/**
 * The admin forms' side of the save flow of the uploaded entities (tracks, gallery, blog;
 * the flow itself is upload-flow.server.ts): the fields validated by conform, and a save
 * result turned into the form's answer: a redirect with a toast, the form with its errors, a
 * 404 page, or the generic message for a failure on our side (decision 050).
 */

const errorToast = (title: string, description: string): ToastInput => ({
  id: Math.random().toString(36).slice(2),
  type: 'error',
  title,
  description,
});

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
const withFields = (
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

/** The form answered with its errors: conform's reply, the alert's title and a toast. */
const formError = (reply: SubmissionResult<string[]>, alert: ToastNotice, status = 400) =>
  data<FormActionResult>(
    { result: reply, alertTitle: alert.title, toast: errorToast(alert.title, alert.description) },
    { status },
  );

/**
 * A save result as the admin form's answer: a redirect to the list with a success toast;
 * the form with its errors (400; the body's own status when it was refused as a whole);
 * a 404 page for an unknown id; a save that failed on our side is logged with the request id
 * and answered 500 with the generic message (decision 050).
 */
export async function answerForm<R>(
  request: Request,
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
  const answer = formError;
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
      return answer(submission.reply({ formErrors: [texts.notFound] }), failure(texts.notFound));
    case 'failed': {
      const message = reportServerFailure(result.error, request, failTitle.toLowerCase());
      return answer(submission.reply({ formErrors: [message] }), failure(message), result.status);
    }
  }
}

/** An entity's admin form: its texts, and the text fields it completes on create (if any). */
export type EntityForm<R> = FormTexts<R> & {
  /** E.g. the blog's slug from the title when the form (without JavaScript) sent none. */
  completeOnCreate?: (fields: TextFields) => TextFields;
};

/**
 * The add/edit action of an entity's admin form (the route has checked the admin with
 * `requireAdminForUpload`): a redirect to the list with a toast, or the form with its errors
 * (400, or the body's own status such as 413), or a 404 page for an unknown id. A failure
 * outside the save itself (reading the record, the body) follows the same policy.
 */
export async function submitUploadForm<R>(
  request: Request,
  target: SaveTarget,
  listUrl: string,
  form: EntityForm<R>,
  save: (
    request: Request,
    target: SaveTarget,
    client: SaveClient<FormSubmission>,
  ) => Promise<SaveResult<R, FormSubmission>>,
) {
  const complete = target.mode === 'create' ? form.completeOnCreate : undefined;
  const client = complete ? withFields(FORM_CLIENT, complete) : FORM_CLIENT;
  const title = form.failed[target.mode];
  return catchServerFailure(
    request,
    title.toLowerCase(),
    async () => answerForm(request, await save(request, target, client), target, form, listUrl),
    (message) =>
      formError(
        { status: 'error', error: { '': [message] } },
        { title, description: message },
        500,
      ),
  );
}
