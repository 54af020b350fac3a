import { z } from 'zod';

import { TRACK_TYPES } from '~/types/constants';
import { parseClock } from '~/utils/media-time';

import { LIMITS, optionalText, requiredText, visibilityFields } from './common';
import { checkTracklistDuration, TracklistField } from './tracklist';

/** Shown (toast and form alert) when a new track is submitted without its cover or audio file. */
export const MISSING_FILES = {
  title: 'Missing files',
  description: 'Cover image and audio file are required. Make sure both files are selected.',
} as const;

export const DURATION_MESSAGE = 'Duration must be MM:SS or H:MM:SS (e.g. 3:45 or 1:02:30)';

const booleanField = z.preprocess(
  (v) => v === true || v === 'true' || v === 'on' || v === '1',
  z.boolean(),
);

/**
 * The text fields of the track form and of POST/PUT /api/admin/tracks, as an object (the form
 * extends it with its file inputs). Files are handled by the upload parser; on edit,
 * coverImageUrl/audioFileUrl keep the current files. Use TrackFieldsSchema to validate.
 */
export const TrackFieldsObject = z.object({
  title: requiredText('Title is required', LIMITS.title),
  artist: optionalText(LIMITS.name),
  album: optionalText(LIMITS.title),
  type: z.enum(TRACK_TYPES).default('Single'),
  duration: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .refine((v) => parseClock(v) !== null, DURATION_MESSAGE)
      .optional(),
  ),
  description: optionalText(LIMITS.trackDescription),
  tracklist: TracklistField,
  featured: booleanField.default(false),
  ...visibilityFields,
});

/** The track's fields, with the tracklist checked against a typed duration. */
export const TrackFieldsSchema = TrackFieldsObject.superRefine(checkTracklistDuration);
export type TrackFields = z.infer<typeof TrackFieldsSchema>;

export const FeaturedToggleSchema = z.object({ featured: z.boolean() });
