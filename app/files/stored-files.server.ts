import fs from 'node:fs/promises';
import path from 'node:path';
import { uploadsDir } from '~/server/env.server';

/**
 * Map a public `/uploads/...` URL to its absolute path inside UPLOADS_DIR, or null when
 * it points anywhere else (another host, a traversal attempt, the fallback file).
 */
export function uploadPathFromUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith('/uploads/')) return null;
  const root = uploadsDir();
  const relative = decodeURIComponent(url.slice('/uploads/'.length).split(/[?#]/)[0] ?? '');
  if (!relative || relative.includes('\0')) return null;
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) return null;
  return full;
}

type DeletionListener = (absolutePath: string) => void;
const deletionListeners = new Set<DeletionListener>();

/** Be told of every uploaded file `deleteUploadedFile` removes (e.g. to drop a cache entry). */
export function onUploadedFileDeleted(listener: DeletionListener): void {
  deletionListeners.add(listener);
}

/** Files that must never be deleted with an item. */
const PROTECTED = new Set(['audio/fallback.mp3']);

/**
 * Delete an uploaded file and its derivatives (responsive image sizes), ignoring files
 * that are already gone. Called when an item is deleted or its file replaced.
 */
export async function deleteUploadedFile(url: string | null | undefined): Promise<void> {
  const full = uploadPathFromUrl(url);
  if (!full) return;
  const relative = path.relative(uploadsDir(), full).split(path.sep).join('/');
  if (PROTECTED.has(relative)) return;
  const dir = path.dirname(full);
  const base = path.basename(full, path.extname(full));
  await fs.rm(full, { force: true });
  for (const listener of deletionListeners) listener(full);
  // Derivatives are written beside the original as <base>-<width>w.<ext>.
  try {
    const siblings = await fs.readdir(dir);
    await Promise.all(
      siblings
        .filter((f) => f.startsWith(`${base}-`) && /-\d+w\.\w+$/.test(f))
        .map((f) => fs.rm(path.join(dir, f), { force: true })),
    );
  } catch {
    // The folder itself is gone: nothing left to delete.
  }
}
