import { z } from 'zod';

/** POST /api/favorites: the ids a browser kept before its visitor logged in (merged in). */
export const FavouritesMergeSchema = z.object({
  trackIds: z
    .array(z.number().int().positive(), { message: 'trackIds must be a list of track ids' })
    .max(500, 'At most 500 track ids'),
});
