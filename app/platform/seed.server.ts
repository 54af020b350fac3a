import fs from 'node:fs/promises';
import path from 'node:path';

import mongoose, { Schema } from 'mongoose';
import { parseFile } from 'music-metadata';

import { prepareUploadedImage } from '~/files/image-derivatives.server';
import { releaseStagingCopies, storeUpload } from '~/files/stored-files.server';
import { BlogPost } from '~/models/blog-post.server';
import { ContactMessage } from '~/models/contact-message.server';
import { GalleryImage } from '~/models/gallery-image.server';
import { enqueueTrackAudioJob } from '~/models/media-job.server';
import { defineModel, isDuplicateKeyError } from '~/models/model-helpers.server';
import { Show } from '~/models/show.server';
import { Subscriber } from '~/models/subscriber.server';
import { ensureTheme } from '~/models/theme.server';
import { Track } from '~/models/track.server';
import { parseTracklist, tracklistMessage } from '~/schemas/tracklist';
import { formatClock } from '~/utils/media-time';
import { addDaysToDateString, siteToday } from '~/utils/time';

import {
  demoGallery,
  demoMessages,
  demoPosts,
  demoShows,
  demoSubscribers,
  demoTracks,
} from '../../scripts/demo/content';
import { uploadsDir } from './env.server';

/**
 * A marker: once demo content has been seeded, it is never seeded again (even if deleted).
 * It is also the claim that lets one instance seed when several start at once on an empty
 * database (decision 022): inserted as `seeding` before anything else, `done` at the end.
 * Markers written before the claim existed have no state: done.
 */
const MetaSchema = new Schema<{ _id: string; at: Date; summary: string; state: string }>(
  { _id: String, at: Date, summary: String, state: String },
  { versionKey: false },
);
const Meta = defineModel('Meta', MetaSchema, 'meta');

/** A claim older than this whose seeding never finished (its process died) is taken over. */
export const SEED_CLAIM_STALE_MS = 10 * 60_000;

/**
 * Claim the seed: true for exactly one caller on an empty database, whichever instance it
 * runs in (the unique `_id` decides), or for the one that takes over a stale claim.
 */
async function claimSeed(now = Date.now()): Promise<boolean> {
  try {
    await Meta.create({ _id: 'seed', state: 'seeding', at: new Date(now) });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const takenOver = await Meta.findOneAndUpdate(
    {
      _id: 'seed',
      state: 'seeding',
      at: mongoose.trusted({ $lt: new Date(now - SEED_CLAIM_STALE_MS) }),
    },
    { $set: { at: new Date(now) } },
  ).lean();
  return takenOver !== null;
}

/** The committed demo media (resolved from the working directory: the repository root). */
export const demoMediaDir = () => path.resolve(process.env.DEMO_MEDIA_DIR ?? 'demo/media');

async function copyMedia(
  source: string,
  folder: 'audio' | 'images',
  name: string,
): Promise<string> {
  const target = path.join(uploadsDir(), folder, name);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.copyFile(source, target);
  if (folder === 'images') await prepareUploadedImage(target);
  const url = `/uploads/${folder}/${name}`;
  await storeUpload(url);
  await releaseStagingCopies(url);
  return url;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

/**
 * Seed the demo content when the database has no content yet (users don't count, so
 * creating the admin before the first start still gives a newcomer the demo).
 * Idempotent: each collection is filled only while empty, and a marker records the seed.
 * Several instances starting at once seed once: only the one that claims the marker seeds.
 */
export async function seedIfEmpty(
  options: { force?: boolean } = {},
): Promise<{ seeded: boolean; summary: string }> {
  if (!options.force && !(await claimSeed())) return { seeded: false, summary: 'already seeded' };
  const media = demoMediaDir();
  const counts: string[] = [];

  if ((await Track.estimatedDocumentCount()) === 0) {
    // Oldest first, so that serial ids follow release order.
    for (const t of [...demoTracks].sort((a, b) => b.daysAgo - a.daysAgo)) {
      const audioPath = path.join(media, 'audio', t.audio);
      const meta = await parseFile(audioPath, { duration: true });
      const seconds = Math.max(0, Math.round(meta.format.duration ?? 0));
      // The demo tracklist goes through the admin's parser: a bad demo row fails the seed.
      const tracklist = parseTracklist(t.tracklist ?? '', seconds);
      if (tracklist.problems.length > 0) {
        throw new Error(
          `demo tracklist of "${t.title}": ${tracklist.problems.map(tracklistMessage).join('; ')}`,
        );
      }
      const track = await Track.create({
        title: t.title,
        artist: t.artist,
        album: t.album,
        type: t.type,
        duration: formatClock(seconds),
        durationSeconds: seconds,
        description: t.description ?? null,
        tracklist: tracklist.rows,
        audioFile: await copyMedia(audioPath, 'audio', `demo-${t.audio}`),
        coverImage: await copyMedia(
          path.join(media, 'covers', t.cover),
          'images',
          `demo-cover-${t.cover}`,
        ),
        featured: t.featured,
        createdAt: daysAgo(t.daysAgo),
      });
      // Their waveforms: the demo MP3s are streamed as they are, so the job computes peaks only.
      await enqueueTrackAudioJob(track.id, track.audioFile, false);
    }
    counts.push(`${demoTracks.length} tracks`);
  }

  if ((await GalleryImage.estimatedDocumentCount()) === 0) {
    for (const g of [...demoGallery].sort((a, b) => b.daysAgo - a.daysAgo)) {
      await GalleryImage.create({
        title: g.title,
        description: g.description,
        imageUrl: await copyMedia(
          path.join(media, 'gallery', g.file),
          'images',
          `demo-gallery-${g.file}`,
        ),
        createdAt: daysAgo(g.daysAgo),
      });
    }
    counts.push(`${demoGallery.length} gallery images`);
  }

  if ((await BlogPost.estimatedDocumentCount()) === 0) {
    for (const p of [...demoPosts].sort((a, b) => b.daysAgo - a.daysAgo)) {
      await BlogPost.create({
        title: p.title,
        slug: p.slug,
        category: p.category,
        excerpt: p.excerpt,
        content: p.content,
        imageUrl: await copyMedia(
          path.join(media, 'blog', p.image),
          'images',
          `demo-blog-${p.image}`,
        ),
        createdAt: daysAgo(p.daysAgo),
      });
    }
    counts.push(`${demoPosts.length} blog posts`);
  }

  if ((await Show.estimatedDocumentCount()) === 0) {
    const today = siteToday();
    for (const s of demoShows) {
      await Show.create({
        title: s.title,
        venue: s.venue,
        location: s.location,
        date: addDaysToDateString(today, s.daysFromToday),
        time: s.time,
        ticketUrl: s.ticketUrl,
        description: s.description,
      });
    }
    counts.push(`${demoShows.length} shows`);
  }

  if ((await Subscriber.estimatedDocumentCount()) === 0) {
    for (const s of [...demoSubscribers].sort((a, b) => b.daysAgo - a.daysAgo)) {
      await Subscriber.create({
        name: s.name,
        email: s.email,
        emailLower: s.email.toLowerCase(),
        createdAt: daysAgo(s.daysAgo),
      });
    }
    counts.push(`${demoSubscribers.length} subscribers`);
  }

  if ((await ContactMessage.estimatedDocumentCount()) === 0) {
    for (const m of [...demoMessages].sort((a, b) => b.daysAgo - a.daysAgo)) {
      await ContactMessage.create({ ...m, createdAt: daysAgo(m.daysAgo) });
    }
    counts.push(`${demoMessages.length} messages`);
  }

  await ensureTheme();
  const summary = counts.join(', ') || 'nothing to add';
  await Meta.updateOne(
    { _id: 'seed' },
    { $set: { state: 'done', at: new Date(), summary } },
    { upsert: true },
  );
  return { seeded: true, summary };
}

export { mongoose };
