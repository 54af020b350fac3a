import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getTheme, saveTheme } from '~/models/theme.server';
import { catchServerFailure } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { tracksListUrl } from '~/utils/admin-urls';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Track Settings');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const theme = await getTheme();
  return { weeklyRotation: theme.weeklyRotation, closeTo: tracksListUrl(request.url) };
}

/** Weekly rotation is persisted in the theme settings; the featured track is computed on read. */
export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = tracksListUrl(request.url);
  const formData = await readForm(request);
  const weeklyRotation = formData.get('weeklyRotation') === 'on';
  return catchServerFailure(
    request,
    'saving the track settings failed',
    async () => {
      await saveTheme({ weeklyRotation });
      return redirectWithToast(to, {
        type: 'success',
        title: 'Settings saved',
        description: weeklyRotation
          ? 'Weekly rotation is on: the featured track changes every Monday at midnight.'
          : 'Weekly rotation is off: the featured track stays as you set it.',
      });
    },
    (description) =>
      redirectWithToast(to, { type: 'error', title: 'Failed to save settings', description }),
  );
}

export default function TrackSettings() {
  const { weeklyRotation, closeTo } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting';
  return (
    <RouteDialog
      title="Track Settings"
      description="How the featured track is chosen."
      closeTo={closeTo}
    >
      <Form method="post" className="space-y-6">
        <div className="flex items-start justify-between gap-4 rounded-lg border border-border p-4">
          <div>
            <label htmlFor="weekly-rotation" className="font-medium">
              Weekly Rotation
            </label>
            <p id="weekly-rotation-hint" className="mt-1 text-sm text-muted-foreground">
              When on, the featured track rotates automatically every Monday at midnight
              (America/New_York), going through all tracks in turn.
            </p>
          </div>
          <input
            id="weekly-rotation"
            type="checkbox"
            role="switch"
            name="weeklyRotation"
            defaultChecked={weeklyRotation}
            aria-describedby="weekly-rotation-hint"
            className="relative mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full border border-border bg-muted transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-[1.125rem] before:w-[1.125rem] before:rounded-full before:bg-foreground before:transition-transform checked:bg-primary checked:before:translate-x-5 checked:before:bg-primary-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
            Cancel
          </Link>
          <SubmitButton pending={pending} pendingLabel="Saving...">
            Save
          </SubmitButton>
        </div>
      </Form>
    </RouteDialog>
  );
}
