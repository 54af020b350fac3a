import { Schema } from 'mongoose';

import { deleteUploadedFile } from '~/files/stored-files.server';
import type { GalleryImageJSON } from '~/types/entities';

import { serialIdPlugin } from './counter.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import {
  countRecords,
  findNumberedPage,
  type NumberedPage,
  numberedPagesOf,
  type RecordList,
} from './paging.server';

type GalleryImageDoc = {
  id: number;
  title: string;
  description?: string | null;
  imageUrl: string;
  createdAt: Date;
  updatedAt: Date;
};

const GalleryImageSchema = new Schema<GalleryImageDoc>(
  {
    title: { type: String, required: true, trim: true },
    description: { type: String, default: null },
    imageUrl: { type: String, required: true },
  },
  { timestamps: true },
);
GalleryImageSchema.plugin(serialIdPlugin, { counter: 'gallery' });
GalleryImageSchema.index({ createdAt: -1, id: -1 });

export const GalleryImage = defineModel<GalleryImageDoc>(
  'GalleryImage',
  GalleryImageSchema,
  'gallery_images',
);

export function toGalleryImageJSON(g: GalleryImageDoc): GalleryImageJSON {
  return {
    id: g.id,
    title: g.title,
    description: g.description ?? null,
    imageUrl: g.imageUrl,
    createdAt: iso(g.createdAt),
  };
}

/** Newest first. */
export async function listGalleryImages(
  options: { limit?: number } = {},
): Promise<GalleryImageJSON[]> {
  const docs = await cachedFind(GalleryImage, {
    sort: { createdAt: -1, id: -1 },
    limit: options.limit,
  });
  return docs.map(toGalleryImageJSON);
}

/** Images on one page of /gallery (8 rows of 3). */
export const GALLERY_IMAGES_PER_PAGE = 24;

/** One page of /gallery (issue 37), newest first; a page past the end is the last page. */
export async function findGalleryImagePage(options: {
  page: number;
  perPage?: number;
}): Promise<NumberedPage<GalleryImageJSON>> {
  const found = await findNumberedPage(GalleryImage, {
    sort: { createdAt: -1, id: -1 },
    page: options.page,
    perPage: options.perPage ?? GALLERY_IMAGES_PER_PAGE,
  });
  return { ...found, items: found.items.map(toGalleryImageJSON) };
}

export async function getGalleryImage(id: number): Promise<GalleryImageJSON | null> {
  const doc = await cachedFindOne(GalleryImage, { filter: { id } });
  return doc ? toGalleryImageJSON(doc) : null;
}

export type GalleryImageWrite = { title: string; description?: string | null; imageUrl: string };

export async function createGalleryImage(input: GalleryImageWrite): Promise<GalleryImageJSON> {
  const doc = await GalleryImage.create({
    ...input,
    description: input.description?.trim() || null,
  });
  return toGalleryImageJSON(doc.toObject());
}

export async function updateGalleryImage(
  id: number,
  input: Partial<GalleryImageWrite>,
): Promise<GalleryImageJSON | null> {
  const before = await GalleryImage.findOne({ id }).lean();
  if (!before) return null;
  const set: Record<string, unknown> = { ...input };
  if ('description' in input) set.description = input.description?.trim() || null;
  const after = await GalleryImage.findOneAndUpdate(
    { id },
    { $set: set },
    { returnDocument: 'after' },
  ).lean();
  if (!after) return null;
  if (input.imageUrl && input.imageUrl !== before.imageUrl)
    await deleteUploadedFile(before.imageUrl);
  return toGalleryImageJSON(after);
}

export async function deleteGalleryImage(id: number): Promise<GalleryImageJSON | null> {
  const doc = await GalleryImage.findOneAndDelete({ id }).lean();
  if (!doc) return null;
  await deleteUploadedFile(doc.imageUrl);
  return toGalleryImageJSON(doc);
}

/** From the collection's metadata (issue 37). */
export const countGalleryImages = () => countRecords(GalleryImage);

/** One page of the back office's grid, newest first (issue 37; indexed `{ createdAt: -1, id: -1 }`). */
export const pageGalleryImages = numberedPagesOf(
  GalleryImage,
  { createdAt: -1, id: -1 },
  toGalleryImageJSON,
);

/** GET /api/gallery: newest first (index `{ createdAt: -1, id: -1 }`; issue 37, decision 045). */
export const galleryImageList = (): RecordList<GalleryImageDoc> => ({
  model: GalleryImage,
  sort: { createdAt: -1, id: -1 },
  fields: ['id', 'title', 'description', 'imageUrl', 'createdAt'],
});
