import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, Link, useNavigation } from '@remix-run/react';
import { FormAlert } from '~/components/admin/form-alert';
import { usePostPending } from '~/components/admin/use-post-pending';
import { useToastOnce } from '~/components/site/toaster';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { Field, inputClass } from '~/components/ui/field';
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
  const pending = usePostPending();
  const [form, fields] = useForm({
    id: show ? `edit-show-${show.id}` : 'new-show',
    lastResult: navigation.state === 'idle' ? lastResult : null,
    constraint: getZodConstraint(ShowSchema),
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
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ShowSchema }),
  });

  const failureTitle = show ? 'Failed to update show' : 'Failed to create show';
  useToastOnce(
    form.errors?.length
      ? { type: 'error', title: failureTitle, description: form.errors.join(' ') }
      : null,
  );

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormAlert id={form.errorId} title={failureTitle} errors={form.errors} />
      <Field label="Title" errors={fields.title.errors} id={fields.title.id}>
        {(a11y) => (
          <input
            {...getInputProps(fields.title, { type: 'text' })}
            {...a11y}
            key={fields.title.key}
            className={inputClass}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Venue" errors={fields.venue.errors} id={fields.venue.id}>
          {(a11y) => (
            <input
              {...getInputProps(fields.venue, { type: 'text' })}
              {...a11y}
              key={fields.venue.key}
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label="Location"
          hint="City, State"
          errors={fields.location.errors}
          id={fields.location.id}
        >
          {(a11y) => (
            <input
              {...getInputProps(fields.location, { type: 'text' })}
              {...a11y}
              key={fields.location.key}
              placeholder="Asbury Park, NJ"
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Date" errors={fields.date.errors} id={fields.date.id}>
          {(a11y) => (
            <input
              {...getInputProps(fields.date, { type: 'date' })}
              {...a11y}
              // The schema's YYYY-MM-DD pattern is what a date input submits anyway.
              pattern={undefined}
              key={fields.date.key}
              className={`${inputClass} [color-scheme:inherit]`}
            />
          )}
        </Field>
        <Field label="Time" hint="e.g. 8:00 PM" errors={fields.time.errors} id={fields.time.id}>
          {(a11y) => (
            <input
              {...getInputProps(fields.time, { type: 'text' })}
              {...a11y}
              key={fields.time.key}
              placeholder="8:00 PM"
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <Field
        label="Ticket URL (optional)"
        errors={fields.ticketUrl.errors}
        id={fields.ticketUrl.id}
      >
        {(a11y) => (
          <input
            {...getInputProps(fields.ticketUrl, { type: 'url' })}
            {...a11y}
            key={fields.ticketUrl.key}
            placeholder="https://"
            className={inputClass}
          />
        )}
      </Field>
      <Field
        label="Description (optional)"
        errors={fields.description.errors}
        id={fields.description.id}
      >
        {(a11y) => (
          <textarea
            {...getTextareaProps(fields.description)}
            {...a11y}
            key={fields.description.key}
            rows={4}
            className={inputClass}
          />
        )}
      </Field>
      <Field
        label="Guest list spots for members"
        errors={fields.guestListCapacity.errors}
        id={fields.guestListCapacity.id}
        hint={
          show && show.guestListCount > 0
            ? `0 closes the list. ${show.guestListCount} taken; lowering the number removes no one.`
            : 'Logged-in members can ask for a spot until the show. 0 means no guest list.'
        }
      >
        {(a11y) => (
          <input
            {...getInputProps(fields.guestListCapacity, { type: 'number' })}
            {...a11y}
            key={fields.guestListCapacity.key}
            min={0}
            step={1}
            inputMode="numeric"
            className={inputClass}
          />
        )}
      </Field>
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
          Cancel
        </Link>
        <SubmitButton pending={pending} pendingLabel={show ? 'Updating...' : 'Creating...'}>
          {show ? 'Update Show' : 'Create Show'}
        </SubmitButton>
      </div>
    </Form>
  );
}
