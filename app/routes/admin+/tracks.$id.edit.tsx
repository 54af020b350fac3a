import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { TrackAudioStatus } from '~/components/admin/track-audio-status';
import { TrackForm } from '~/components/admin/track-form';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getTrackAudioAdmin } from '~/models/track-audio.server';
import { env } from '~/platform/env.server';
import { trackEditLoader, trackFormAction } from '~/services/track-save.server';
import { tracksListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Track');

export async function loader(args: LoaderFunctionArgs) {
  const { item: track, closeTo } = await trackEditLoader(args, tracksListUrl);
  const audio = await getTrackAudioAdmin(track.id);
  return { track, audio, defaultArtist: env.SITE_NAME, closeTo };
}

export function action(args: ActionFunctionArgs) {
  return trackFormAction(args, tracksListUrl);
}

export default function EditTrack() {
  const { track, audio, defaultArtist, closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog
      title="Edit Track"
      description={`Editing "${track.title}"`}
      closeTo={closeTo}
      size="lg"
    >
      {audio ? (
        <TrackAudioStatus
          trackId={track.id}
          status={audio.audioStatus}
          error={audio.audioError}
          hasOriginal={audio.originalAudioFile !== null}
        />
      ) : null}
      <TrackForm key={track.id} track={track} defaultArtist={defaultArtist} {...props} />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="tracks" />;
}
