import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Tools that neither the site nor `npm test` needs are not in package.json, so `npm ci` does
 * not install them (issue 36: a light footprint). Each is a folder `tools/<name>/` with its
 * own package.json (exact versions), package-lock.json (committed) and `index.js`, the entry
 * the script imports. The first use installs the folder from its lock (`npm ci` there, into
 * `tools/<name>/node_modules`, ignored by git); a changed lock installs it again.
 *
 * - `lighthouse`: Lighthouse 12 and chrome-launcher, for `npm run lighthouse` (~180 MB).
 * - `icons`: lucide-react and simple-icons, for `npm run icons` (the committed sprites).
 * - `font-metrics`: @capsizecss/metrics, for `npm run fonts:metrics` (the committed module of
 *   the shipped fonts' metrics; the package is 170 MB for every Google font).
 */
export type ToolName = 'lighthouse' | 'icons' | 'font-metrics';

const TOOLS_DIR = fileURLToPath(new URL('../tools/', import.meta.url));

/** tools/<name>, installed from its lock unless the installed copy came from the same lock. */
export function installTool(name: ToolName): string {
  const dir = path.join(TOOLS_DIR, name);
  const lock = fs.readFileSync(path.join(dir, 'package-lock.json'));
  const digest = crypto.createHash('sha256').update(lock).digest('hex');
  const stamp = path.join(dir, 'node_modules', '.installed-from-lock');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest) return dir;
  console.log(`Installing tools/${name} from its lock (once)…`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  fs.writeFileSync(stamp, digest);
  return dir;
}

/** The exports of tools/<name>/index.js, after installing the tool if needed. */
export async function importTool<T>(name: ToolName): Promise<T> {
  const dir = installTool(name);
  return (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as T;
}
