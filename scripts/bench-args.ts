/**
 * The bench scripts' command line, read one way: `--name value` options (a value that is
 * missing, or is another option, is an error rather than a silent default) and `--flag`s; and
 * the memory readings of the store benches, which run under `node --expose-gc`.
 */
export function readOption(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i === -1) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

const argv = process.argv.slice(2);

/** `--name value` of this script's command line. */
export const option = (name: string): string | undefined => readOption(argv, name);

/** `--name N` of this script's command line, or `fallback` without it. */
export function numberOption(name: string, fallback: number): number {
  const value = option(name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`${name} takes a number, not ${value}`);
  return n;
}

/** Whether `--name` is on this script's command line. */
export const flag = (name: string): boolean => argv.includes(name);

/** The collector, or exit saying which npm script passes `--expose-gc`. */
export function requireGc(npmScript: string): () => void {
  if (typeof global.gc !== 'function') {
    console.error(`Run with node --expose-gc (npm run ${npmScript} does).`);
    process.exit(2);
  }
  return global.gc as () => void;
}

/** Heap used and resident memory after two full collections. */
export function settledMemory(gc: () => void): { heap: number; external: number; rss: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, rss: m.rss };
}

export const megabytes = (bytes: number, digits = 0): string =>
  `${(bytes / 1024 / 1024).toFixed(digits)} MB`;
