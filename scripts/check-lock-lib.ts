/**
 * What `npm ci` needs from package-lock.json (decision 021): every dependency and optional
 * dependency a locked package declares is itself locked, where Node would find it, and every
 * package from the registry carries its integrity. `npm ci` on another platform refuses a lock
 * that lacks a platform package (rollup's, esbuild's), even when this machine would skip it.
 */
export type LockEntry = {
  version?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
};
export type Lockfile = { lockfileVersion?: number; packages: Record<string, LockEntry> };

/** Where Node looks for `name` from the package at `path`: its node_modules, then upwards. */
function resolves(lock: Lockfile, path: string, name: string): boolean {
  let base = path;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (candidate in lock.packages) return true;
    if (!base) return false;
    const at = base.lastIndexOf('/node_modules/');
    base = at === -1 ? '' : base.slice(0, at);
  }
}

export function lockProblems(lock: Lockfile): string[] {
  const problems: string[] = [];
  if (lock.lockfileVersion !== 3)
    problems.push(`lockfileVersion is ${lock.lockfileVersion}, not 3`);
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    const fromRegistry = path.startsWith('node_modules/') || path.includes('/node_modules/');
    if (fromRegistry && !entry.integrity) problems.push(`${path}@${entry.version}: no integrity`);
    const declared: [string, 'dependency' | 'optional dependency'][] = [
      ...Object.keys(entry.dependencies ?? {}).map(
        (n) => [n, 'dependency'] as [string, 'dependency'],
      ),
      ...Object.keys(entry.optionalDependencies ?? {}).map(
        (n) => [n, 'optional dependency'] as [string, 'optional dependency'],
      ),
    ];
    for (const [name, kind] of declared) {
      if (!resolves(lock, path, name))
        problems.push(`${path || '(root)'}: ${kind} ${name} is not in the lock`);
    }
  }
  return problems;
}
