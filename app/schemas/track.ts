import { z } from 'zod';

import { LIMITS, optionalText, requiredText, visibilityFields } from './common';

/** Shown (toast and form alert) when a new track is submitted without its cover or audio file. */
export const MISSING_FILES = {
  title: 'Missing files',
  description: 'Cover image and audio file are required. Make sure both files are selected.',
} as const;

/** The release types the admin chooses from; Mix, Live set and Radio show are long-form sets. */
export const TRACK_TYPES = ['Single', 'EP', 'Album', 'Mix', 'Live set', 'Radio show'] as const;
export const MIX_TYPES: readonly string[] = ['Mix', 'Live set', 'Radio show'];

const booleanField = z.preprocess(
  (v) => v === true || v === 'true' || v === 'on' || v === '1',
  z.boolean(),
);

/**
 * The text fields of the track form and of POST/PUT /api/admin/tracks. Files are
 * handled by the upload parser; on edit, coverImageUrl/audioFileUrl keep the current files.
 */
export const TrackFieldsSchema = z.object({
  title: requiredText('Title is required', LIMITS.title),
  artist: optionalText(LIMITS.name),
  album: optionalText(LIMITS.title),
  type: z.enum(TRACK_TYPES).default('Single'),
  duration: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .regex(/^\d{1,3}:[0-5]\d$/, 'Duration must be MM:SS (e.g. 3:45)')
      .optional(),
  ),
  featured: booleanField.default(false),
  ...visibilityFields,
});
export type TrackFields = z.infer<typeof TrackFieldsSchema>;

export const FeaturedToggleSchema = z.object({ featured: z.boolean() });
