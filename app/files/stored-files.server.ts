import fs from 'node:fs/promises';
import path from 'node:path';

import { env, uploadsDir } from '~/platform/env.server';

import { mediaKeyFromUrl, mediaStore, SHIPPED_KEYS } from './media-store.server';

/**
 * Stored uploads by URL (`/uploads/<key>`), whatever the media store (decision 023).
 *
 * Uploads arrive on the local disk (UPLOADS_DIR doubles as the staging area): the original
 * and, for images, its derivatives `<base>-<width>w.<ext>` written beside it. On the disk store
 * those files are the stored ones. On GridFS, `storeUpload` copies them into the store before
 * the record that points at them is written, and `releaseStagingCopies` removes the local
 * copies afterwards.
 */

/** A derivative of `<base>.<ext>` is `<base>-<digits>w.<ext2>`. */
const isDerivativeOf = (base: string, name: string) =>
  name.startsWith(`${base}-`) && /^\d+w\.\w+$/.test(name.slice(base.length + 1));

/**
 * The local path of an upload on the disk store, or null: other URLs, traversal attempts, and
 * every URL when media live in GridFS (there is no local file to read then).
 */
export function uploadPathFromUrl(url: string | null | undefined): string | null {
  if (env.MEDIA_STORAGE !== 'disk') return null;
  return stagingPathFromUrl(url);
}

/** Where an upload is (or was) staged on the local disk, whatever the store. */
export function stagingPathFromUrl(url: string | null | undefined): string | null {
  const key = mediaKeyFromUrl(url);
  return key ? path.join(uploadsDir(), ...key.split('/')) : null;
}

/** The local original and the derivatives written beside it. */
async function stagedFiles(localPath: string): Promise<string[]> {
  const dir = path.dirname(localPath);
  const base = path.basename(localPath, path.extname(localPath));
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return [localPath, ...names.filter((n) => isDerivativeOf(base, n)).map((n) => path.join(dir, n))];
}

/** Make a finished local upload and its derivatives the stored files (disk: already so). */
export async function storeUpload(url: string): Promise<void> {
  const store = mediaStore();
  const localPath = stagingPathFromUrl(url);
  if (store.kind === 'disk' || !localPath) return;
  const folder = path.basename(path.dirname(localPath));
  for (const file of await stagedFiles(localPath)) {
    await store.put(`${folder}/${path.basename(file)}`, file);
  }
}

/** GridFS: remove the local copies once the record is written (or given up). Disk: nothing. */
export async function releaseStagingCopies(url: string): Promise<void> {
  const localPath = stagingPathFromUrl(url);
  if (env.MEDIA_STORAGE === 'disk' || !localPath) return;
  await Promise.all((await stagedFiles(localPath)).map((f) => fs.rm(f, { force: true })));
}

type DeletionListener = (url: string) => void;
const deletionListeners = new Set<DeletionListener>();

/** Be told of every upload `deleteUploadedFile` removes (e.g. to drop a cache entry). */
export function onUploadedFileDeleted(listener: DeletionListener): void {
  deletionListeners.add(listener);
}

/**
 * Delete an uploaded file and its derivatives (responsive image sizes) from the store,
 * ignoring files that are already gone. Called when an item is deleted or its file replaced.
 * The shipped files are never deleted.
 */
export async function deleteUploadedFile(url: string | null | undefined): Promise<void> {
  const key = mediaKeyFromUrl(url);
  if (!key || SHIPPED_KEYS.has(key)) return;
  const store = mediaStore();
  const [folder, name] = key.split('/') as [string, string];
  const base = name.slice(0, name.length - path.extname(name).length);
  await store.delete(key);
  for (const listener of deletionListeners) listener(`/uploads/${key}`);
  for (const derivative of await store.list(`${folder}/${base}-`)) {
    if (isDerivativeOf(base, derivative.slice(folder.length + 1))) await store.delete(derivative);
  }
}
