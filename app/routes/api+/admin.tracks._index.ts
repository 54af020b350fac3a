import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminMethodNotAllowed } from '~/api/api.server';
import { createAction } from '~/api/upload-routes.server';
import { saveTrack } from '~/services/track-save.server';

const MISSING_TRACK_FILES =
  'Cover image and audio file are required. Make sure both files are selected.';

/**
 * POST /api/admin/tracks — multipart: title, artist?, album?, type?, duration? (m:ss; read
 * from the audio when empty), featured ('true'/'false'), coverImage and audioFile (both
 * required). 201 with the track.
 */
export function action({ request }: ActionFunctionArgs) {
  return createAction(request, saveTrack, { missingFiles: MISSING_TRACK_FILES });
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['POST']);
}
