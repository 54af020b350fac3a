import { type FormEvent, useState } from 'react';

import { showToast } from '~/components/site/toaster';
import { UPLOAD_ID_FIELDS } from '~/schemas/resumable-upload';
import type { ToastNotice } from '~/types/toast';

/** A chosen file in a file input (an empty input still sends an empty, nameless File). */
export const hasFile = (value: FormDataEntryValue | null) =>
  value instanceof File && value.size > 0 && value.name !== '';

/** A file field is given by a chosen file, or by the id of a finished resumable upload. */
function given(formData: FormData, name: string): boolean {
  if (hasFile(formData.get(name))) return true;
  const idField = UPLOAD_ID_FIELDS[name];
  const id = idField ? formData.get(idField) : null;
  return typeof id === 'string' && id !== '';
}

/**
 * Files a create form cannot go without (a track's cover and audio, a post's or a gallery
 * item's image). With JavaScript a submit without them is stopped here, before a large
 * upload starts: the form's alert shows `message` and so does a toast; any change to the form
 * clears it. Without JavaScript the server answers with the same message.
 */
export function useRequiredFiles({
  required,
  names,
  message,
}: {
  /** False when editing: the current files are kept. */
  required: boolean;
  names: readonly string[];
  message: ToastNotice;
}) {
  const [missing, setMissing] = useState(false);
  return {
    /** For conform's `onSubmit`. */
    check(event: FormEvent, formData: FormData) {
      if (!required || names.every((name) => given(formData, name))) return;
      event.preventDefault();
      setMissing(true);
      showToast({ type: 'error', ...message });
    },
    /** For the form's `onChange`. */
    clear: () => setMissing(false),
    /** The form alert: the missing files, else the form's own title and errors. */
    alert: (title: string, errors: string[] | undefined) =>
      missing ? { title: message.title, errors: [message.description] } : { title, errors },
  };
}
