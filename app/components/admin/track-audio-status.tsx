import type { AudioStatus } from '~/types/entities';

/**
 * The admin's view of a track's audio (decision 035): whether its stream is ready, still being
 * made, or failed (with the reason), and a download of the uploaded original, which only
 * administrators can have.
 */
export function TrackAudioStatus({
  trackId,
  status,
  error,
  hasOriginal,
}: {
  trackId: number;
  status: AudioStatus;
  error: string | null;
  /** A stream replaced the upload: the upload is kept as the original. */
  hasOriginal: boolean;
}) {
  const download = (
    <a
      href={`/admin/tracks/${trackId}/original`}
      className="font-medium text-primary underline underline-offset-2 hover:no-underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      Download the original upload
    </a>
  );
  if (status === 'failed') {
    return (
      <div
        role="alert"
        data-testid="track-audio-status"
        className="mb-4 rounded-lg border border-destructive p-3 text-sm"
      >
        <p className="font-semibold">Processing failed</p>
        {error ? <p className="mt-1 text-muted-foreground">{error}</p> : null}
        <p className="mt-1">
          The upload is kept, and listeners cannot play it. Upload another file, or {download}.
        </p>
      </div>
    );
  }
  if (status === 'processing') {
    return (
      <p
        data-testid="track-audio-status"
        className="mb-4 rounded-lg border border-border p-3 text-sm"
      >
        <span className="font-semibold">Processing…</span> The stream for listeners is being made;
        the track plays once it is ready (reload to see).
      </p>
    );
  }
  if (!hasOriginal) return null;
  return (
    <p
      data-testid="track-audio-status"
      className="mb-4 rounded-lg border border-border p-3 text-sm"
    >
      Listeners get a 192 kbps MP3 made from the upload. {download}
    </p>
  );
}
