import { MISSING_FILES } from '~/schemas/track';
import { saveTrack } from '~/services/track-save.server';
import type { SaveTarget } from '~/services/upload-save.server';
import type { TrackJSON } from '~/types/entities';

import { answerForm, FORM_CLIENT, type FormTexts } from './upload-form.server';

const TEXTS: FormTexts<TrackJSON> = {
  failed: { create: 'Failed to create track', update: 'Failed to update track' },
  notFound: 'Track not found',
  missingFiles: MISSING_FILES,
  saved: {
    create: (t) => ({
      title: 'Track created',
      description: `"${t.title}" was added to the catalogue.`,
    }),
    update: (t) => ({ title: 'Track updated', description: `"${t.title}" was updated.` }),
  },
};

/**
 * The add/edit track action (the route has already checked the admin): the shared save flow
 * (the duration is read from the audio when left empty), then a redirect to the list with a
 * toast, or the form with its errors (400, or 413 for a body over the cap).
 */
export async function submitTrackForm(request: Request, target: SaveTarget, listUrl: string) {
  return answerForm(await saveTrack(request, target, FORM_CLIENT), target, TEXTS, listUrl);
}
