/**
 * How the project's command-line tools end (issue 36): one line on standard output when they
 * succeed; one clear line on standard error and exit code 1 when they fail, never a stack
 * trace. `main` answers its line (or throws `ScriptFailure` with one); any other error is
 * written as its message on one line.
 *
 * With `db: true` the database is connected before `main` (the embedded store started by this
 * process, or the running site's store, or MONGODB_URI) and closed after it, whatever happens.
 * The app's modules are imported inside, so a bad configuration (read when they load) is a
 * failure like any other, not an uncaught exception.
 */
export class ScriptFailure extends Error {}

/** An error's message on one line ("Invalid configuration: MONGODB_URI: …; PORT: …"). */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
}

export async function runScript(
  name: string,
  main: () => Promise<string>,
  options: { db?: boolean } = {},
): Promise<void> {
  let line: string | null = null;
  let failure: unknown = null;
  let disconnect: (() => Promise<void>) | null = null;
  try {
    if (options.db) {
      const db = await import('../app/platform/db.server');
      disconnect = db.disconnectDb;
      await db.connectDb();
    }
    line = await main();
  } catch (error) {
    failure = error;
  }
  if (disconnect) {
    try {
      await disconnect();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure === null && line !== null) {
    console.log(line);
    return;
  }
  console.error(
    failure instanceof ScriptFailure ? failure.message : `${name} failed: ${oneLine(failure)}`,
  );
  process.exitCode = 1;
}
