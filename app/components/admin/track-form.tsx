import { getInputProps } from '@conform-to/react';
import { z } from 'zod';

import { FileField } from '~/components/admin/file-field';
import { ResumableAudioField } from '~/components/admin/resumable-audio-field';
import { UploadForm, type UploadFormProps, useUploadForm } from '~/components/admin/upload-form';
import { VisibilityFields } from '~/components/admin/visibility-fields';
import {
  ConformInputField,
  ConformSelectField,
  ConformTextareaField,
} from '~/components/ui/conform-fields';
import { Thumbnail } from '~/components/ui/thumbnail';
import { LIMITS } from '~/schemas/form-constants';
import { MISSING_FILES, TrackFieldsObject } from '~/schemas/track';
import {
  checkTracklistDuration,
  TRACKLIST_FORMAT,
  TRACKLIST_LIMITS,
  tracklistText,
} from '~/schemas/tracklist';
import { TRACK_TYPES } from '~/types/constants';
import type { TrackJSON } from '~/types/entities';

/** The text fields plus the two file inputs (checked on the server by the upload parser). */
const TrackFormSchema = TrackFieldsObject.extend({
  coverImage: z.unknown().optional(),
  audioFile: z.unknown().optional(),
  audioUploadId: z.unknown().optional(),
}).superRefine(checkTracklistDuration);

const fileName = (url: string) => url.split('/').pop() ?? url;

/**
 * The add/edit track form: text fields validated by the shared track schema, cover and
 * audio as real file inputs posted as multipart. On create both files are required; on
 * edit they are optional and the current ones are kept.
 */
export function TrackForm({
  track,
  defaultArtist,
  ...props
}: { track?: TrackJSON; defaultArtist: string } & UploadFormProps) {
  const { form, fields, frame } = useUploadForm(props, {
    id: track ? `track-form-${track.id}` : 'track-form-new',
    schema: TrackFormSchema,
    defaultValue: {
      title: track?.title ?? '',
      artist: track?.artist ?? defaultArtist,
      album: track?.album ?? '',
      type: track?.type ?? 'Single',
      duration: track?.duration ?? '',
      description: track?.description ?? '',
      tracklist: track ? tracklistText(track.tracklist) : '',
      featured: track?.featured ? 'on' : undefined,
      visibility: track?.visibility ?? 'public',
      publicAt: track?.publicAt ?? '',
    },
    requiredFiles: {
      required: !track,
      names: ['coverImage', 'audioFile'],
      message: MISSING_FILES,
    },
  });

  return (
    <UploadForm
      {...frame}
      submit={
        track
          ? { label: 'Update Track', pendingLabel: 'Updating...' }
          : { label: 'Create Track', pendingLabel: 'Creating...' }
      }
    >
      <ConformInputField label="Title" field={fields.title} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformInputField label="Artist" field={fields.artist} />
        <ConformInputField label="Album (optional)" field={fields.album} />
        <ConformSelectField label="Type" field={fields.type}>
          {TRACK_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </ConformSelectField>
        <ConformInputField
          label="Duration"
          field={fields.duration}
          hint="MM:SS or H:MM:SS for long sets (e.g. 3:45 or 1:02:30). Leave empty to read it from the audio file."
          placeholder="3:45"
        />
      </div>
      <ConformTextareaField
        label="Description (optional)"
        field={fields.description}
        hint="Liner notes or what the mix is about; blank lines start new paragraphs."
        rows={4}
        maxLength={LIMITS.trackDescription}
      />
      <ConformTextareaField
        label="Tracklist (optional)"
        field={fields.tracklist}
        hint={`One row per line: ${TRACKLIST_FORMAT}. Start times go up; the label is optional; blank lines are ignored (at most ${TRACKLIST_LIMITS.rows} rows).`}
        rows={6}
        spellCheck={false}
        placeholder={'0:00 Night Shore - Intro\n4:12 Floorplan - Never Grow Old [M-Plant]'}
        className="font-mono"
      />
      <div className="flex items-center gap-2">
        <input
          {...getInputProps(fields.featured, { type: 'checkbox' })}
          className="h-4 w-4 rounded border-input accent-[hsl(var(--primary))] focus-visible:ring-2 focus-visible:ring-ring"
        />
        <label htmlFor={fields.featured.id} className="text-sm font-medium">
          Featured track
        </label>
      </div>
      <VisibilityFields visibility={fields.visibility} publicAt={fields.publicAt} />
      <FileField
        label={track ? 'Cover image (leave empty to keep the current one)' : 'Cover image'}
        id={`${form.id}-cover`}
        name="coverImage"
        accept="image/*"
        hint="A square JPEG or PNG works best (WEBP is accepted too); at most 10 MB."
        errors={fields.coverImage.errors}
        current={
          track ? (
            <div className="flex items-center gap-3 text-sm text-muted-foreground">
              <Thumbnail
                src={track.coverImage}
                size={48}
                className="h-12 w-12 rounded object-cover"
              />
              <span>Current cover: {fileName(track.coverImage)}</span>
            </div>
          ) : null
        }
      />
      <ResumableAudioField
        label={track ? 'Audio file (leave empty to keep the current one)' : 'Audio file'}
        id={`${form.id}-audio`}
        errors={[...(fields.audioFile.errors ?? []), ...(fields.audioUploadId.errors ?? [])]}
        current={
          track ? (
            <p className="text-sm text-muted-foreground">
              Current audio: {fileName(track.audioFile)}
            </p>
          ) : null
        }
      />
    </UploadForm>
  );
}
