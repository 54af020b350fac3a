import { constants as fsConstants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

import { uploadsDir } from '~/platform/env.server';

import { isMediaKey } from './media-keys';
import type { MediaStat, MediaStore } from './media-store.server';

/**
 * The disk store of media (MEDIA_STORAGE=disk, the default; decision 023): files under
 * UPLOADS_DIR, each opened without following a link out of it. Chosen by `mediaStore()`
 * (media-store.server.ts).
 */

/** Reads of 256 KiB: one read for a typical player's Range request. */
export const SMALL_READ = 256 * 1024;

/** The bytes at `start`, then the handle closed. */
async function readOnce(
  handle: fs.FileHandle,
  start: number,
  length: number,
  buffer: Buffer,
): Promise<Buffer> {
  try {
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Media folders checked to be inside their root (no symlink out), for a few seconds. */
const checkedFolders = new Map<string, number>();

/** Files under a folder (UPLOADS_DIR by default). */
export function diskMediaStore(root = uploadsDir()): MediaStore {
  const base = path.resolve(root);
  /** The file's path when it is a real file inside the root (no symlink out of it). */
  const resolve = async (key: string): Promise<{ file: string; stat: MediaStat } | null> => {
    if (!isMediaKey(key)) return null;
    const file = path.join(base, ...key.split('/'));
    try {
      const [realRoot, realFile] = await Promise.all([fs.realpath(base), fs.realpath(file)]);
      if (!realFile.startsWith(realRoot + path.sep)) return null;
      const stat = await fs.stat(realFile);
      if (!stat.isFile()) return null;
      return { file: realFile, stat: { size: stat.size, mtimeMs: stat.mtimeMs } };
    } catch {
      return null;
    }
  };
  const folderInside = async (folder: string): Promise<boolean> => {
    const checked = checkedFolders.get(path.join(base, folder));
    if (checked !== undefined && Date.now() - checked < 5_000) return true;
    try {
      const [realRoot, realFolder] = await Promise.all([
        fs.realpath(base),
        fs.realpath(path.join(base, folder)),
      ]);
      if (realFolder !== path.join(realRoot, folder)) return false;
      checkedFolders.set(path.join(base, folder), Date.now());
      return true;
    } catch {
      return false;
    }
  };
  return {
    kind: 'disk',
    async openFile(key) {
      if (!isMediaKey(key)) return null;
      const [folder, name] = key.split('/') as [string, string];
      if (!(await folderInside(folder))) return null;
      let handle: fs.FileHandle;
      try {
        // O_NOFOLLOW: a symlink planted in the folder is not a media file.
        handle = await fs.open(
          path.join(base, folder, name),
          fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW,
        );
      } catch {
        return null;
      }
      const stat = await handle.stat().catch(() => null);
      if (!stat?.isFile()) {
        void handle.close();
        return null;
      }
      return {
        stat: { size: stat.size, mtimeMs: stat.mtimeMs },
        read: (range) =>
          handle.createReadStream({ ...range, highWaterMark: SMALL_READ, autoClose: true }),
        // A player's Range request: one read into one buffer, sent whole (measured: faster
        // than a stream on the handle).
        readSmall: (range, into) =>
          readOnce(handle, range.start, range.end - range.start + 1, into),
        close: () => void handle.close().catch(() => undefined),
      };
    },
    async put(key, localPath) {
      if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
      const target = path.join(base, ...key.split('/'));
      if (path.resolve(localPath) === target) return;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(localPath, target);
    },
    async stat(key) {
      return (await resolve(key))?.stat ?? null;
    },
    async open(key, range) {
      const found = await resolve(key);
      if (!found) throw new Error(`No media file ${key}`);
      return createReadStream(found.file, range);
    },
    async delete(key) {
      if (!isMediaKey(key)) return;
      await fs.rm(path.join(base, ...key.split('/')), { force: true });
    },
    async list(prefix) {
      const folder = prefix.split('/')[0] ?? '';
      const names = await fs.readdir(path.join(base, folder)).catch(() => [] as string[]);
      return names
        .map((name) => `${folder}/${name}`)
        .filter((key) => key.startsWith(prefix) && isMediaKey(key));
    },
    async all() {
      const out: { key: string; mtimeMs: number; size: number }[] = [];
      for (const folder of ['audio', 'images']) {
        for (const name of await fs.readdir(path.join(base, folder)).catch(() => [] as string[])) {
          const key = `${folder}/${name}`;
          if (!isMediaKey(key)) continue;
          const stat = await fs.stat(path.join(base, folder, name)).catch(() => null);
          if (stat?.isFile()) out.push({ key, mtimeMs: stat.mtimeMs, size: stat.size });
        }
      }
      return out;
    },
  };
}
