/**
 * The names a resumable upload (decision 036) shares between the track form, the admin API and
 * the server: the form field that carries a finished upload's id in place of the audio file,
 * and where the tus endpoint answers.
 */

/** The text field naming a finished resumable upload, sent instead of `audioFile`. */
export const AUDIO_UPLOAD_ID_FIELD = 'audioUploadId';

/** The file fields a form may send as a finished upload's id instead: file field → id field. */
export const UPLOAD_ID_FIELDS: Readonly<Record<string, string>> = {
  audioFile: AUDIO_UPLOAD_ID_FIELD,
};

/** The tus endpoint (our HTTP server mounts it; server/http-server.ts). */
export const RESUMABLE_UPLOADS_PATH = '/api/admin/uploads';
