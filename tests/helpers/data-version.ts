/**
 * Waiting for the data version in tests that run an instance in `shared` mode (an external
 * store, the version polled), and a content write to move it. App modules are imported when
 * called: the test file sets the environment up first (`setupTestDatabase`).
 */

export const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A show to create: the smallest write to content (it bumps the data version). */
export const showInput = (title: string) => ({
  title,
  venue: 'Wavelength',
  location: 'Asbury Park, NJ',
  date: '2030-07-04',
  time: '8:00 PM',
});

/**
 * Until the writes before this point have reached the shared version and this instance trusts
 * a version read after them: every bump landed (the version document's `$inc`), then a poll
 * that started later answered (a stamp's `since` is the start of the trusted poll).
 */
export async function versionRead(): Promise<void> {
  const version = await import('../../app/platform/data-version.server');
  const { peekProcessSingleton } = await import('../../app/platform/process-state.server');
  const bump = peekProcessSingleton('dataVersion')?.bump;
  for (let i = 0; i < 3; i++) {
    await bump?.done;
    await tick();
  }
  const after = Date.now();
  while (!(version.versionTrusted() && (version.stamp()?.since ?? 0) > after)) await tick();
}
