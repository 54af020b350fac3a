import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { TrackForm } from '~/components/admin/track-form';
import { useUploadFormProps } from '~/components/admin/upload-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { env } from '~/platform/env.server';
import { trackFormAction } from '~/services/track-save.server';
import { tracksListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Add New Track');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { defaultArtist: env.SITE_NAME, closeTo: tracksListUrl(request.url) };
}

export function action(args: ActionFunctionArgs) {
  return trackFormAction(args, tracksListUrl);
}

export default function NewTrack() {
  const { defaultArtist, closeTo } = useLoaderData<typeof loader>();
  const props = useUploadFormProps(closeTo);
  return (
    <RouteDialog
      title="Add New Track"
      description="Upload a cover image and an audio file."
      closeTo={closeTo}
      size="lg"
    >
      <TrackForm defaultArtist={defaultArtist} {...props} />
    </RouteDialog>
  );
}
