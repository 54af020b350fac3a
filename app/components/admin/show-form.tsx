import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';

import { FormFailure } from '~/components/admin/form-alert';
import { FormActions, useAdminForm } from '~/components/admin/upload-form';
import { ConformInputField, ConformTextareaField } from '~/components/ui/conform-fields';
import { ShowSchema } from '~/schemas/show';
import type { ShowJSON } from '~/types/entities';

/**
 * The show form, in create mode (no `show`) or edit mode. The date is a native
 * `<input type="date">`: a date picker that works without JavaScript and submits
 * YYYY-MM-DD, the format the schema expects.
 */
export function ShowForm({
  show,
  lastResult,
  closeTo,
}: {
  show?: ShowJSON;
  lastResult?: SubmissionResult<string[]> | null;
  closeTo: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useAdminForm({
    id: show ? `edit-show-${show.id}` : 'new-show',
    lastResult: navigation.state === 'idle' ? lastResult : null,
    schema: ShowSchema,
    defaultValue: show
      ? {
          title: show.title,
          venue: show.venue,
          location: show.location,
          date: show.date,
          time: show.time,
          ticketUrl: show.ticketUrl ?? '',
          description: show.description ?? '',
          guestListCapacity: String(show.guestListCapacity),
        }
      : { guestListCapacity: '0' },
  });

  const failureTitle = show ? 'Failed to update show' : 'Failed to create show';

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormFailure id={form.errorId} title={failureTitle} errors={form.errors} />
      <ConformInputField label="Title" field={fields.title} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformInputField label="Venue" field={fields.venue} />
        <ConformInputField
          label="Location"
          hint="City, State"
          field={fields.location}
          placeholder="Asbury Park, NJ"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformInputField
          label="Date"
          field={fields.date}
          type="date"
          // The schema's YYYY-MM-DD pattern is what a date input submits anyway.
          pattern={undefined}
          className="[color-scheme:inherit]"
        />
        <ConformInputField
          label="Time"
          hint="e.g. 8:00 PM"
          field={fields.time}
          placeholder="8:00 PM"
        />
      </div>
      <ConformInputField
        label="Ticket URL (optional)"
        field={fields.ticketUrl}
        type="url"
        placeholder="https://"
      />
      <ConformTextareaField label="Description (optional)" field={fields.description} rows={4} />
      <ConformInputField
        label="Guest list spots for members"
        field={fields.guestListCapacity}
        hint={
          show && show.guestListCount > 0
            ? `0 closes the list. ${show.guestListCount} taken; lowering the number removes no one.`
            : 'Logged-in members can ask for a spot until the show. 0 means no guest list.'
        }
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
      />
      <FormActions
        closeTo={closeTo}
        {...(show
          ? { label: 'Update Show', pendingLabel: 'Updating...' }
          : { label: 'Create Show', pendingLabel: 'Creating...' })}
      />
    </Form>
  );
}
