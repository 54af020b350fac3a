import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { TrackAudioStatus } from '~/components/admin/track-audio-status';
import { TrackForm } from '~/components/admin/track-form';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { useToastOnce } from '~/components/site/toaster';
import { RouteDialog } from '~/components/ui/route-dialog';
import { findByIdParam } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { getTrackAudioAdmin } from '~/models/track-audio.server';
import { env } from '~/platform/env.server';
import { notFound } from '~/platform/http-errors.server';
import { trackFormAction } from '~/services/track-save.server';
import { tracksListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Track');

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const track = await findByIdParam(params.id, getTrack);
  if (!track) throw notFound('Track not found');
  const audio = await getTrackAudioAdmin(track.id);
  return { track, audio, defaultArtist: env.SITE_NAME, closeTo: tracksListUrl(request.url) };
}

export function action(args: ActionFunctionArgs) {
  return trackFormAction(args, tracksListUrl);
}

export default function EditTrack() {
  const { track, audio, defaultArtist, closeTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useToastOnce(actionData?.toast);
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
      <TrackForm
        key={track.id}
        track={track}
        defaultArtist={defaultArtist}
        lastResult={actionData?.result}
        alertTitle={actionData?.alertTitle}
        closeTo={closeTo}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      placement="panel"
      back={{ to: '/admin/tracks', label: 'Back to tracks' }}
    />
  );
}
