/**
 * What an embed page hands its script (decision 038), as JSON in the page. A locked track
 * (members-only) has `src: null`: its audio URL never reaches the embed.
 */
export type EmbedTrack = {
  id: number;
  title: string;
  artist: string;
  /** Whole seconds (0 when unknown). */
  duration: number;
  /** The audio URL, or null when the track is locked or its stream is not ready. */
  src: string | null;
  /** Members-only for this (anonymous) reader. */
  locked: boolean;
  /** "Processing…" / "Not available" while the stream is not ready (decision 035), else null. */
  pending: string | null;
  /** The track page (absolute, from SITE_URL). */
  page: string;
  /** A small cover (absolute path on this site). */
  cover: string;
  /** Its waveform as `waveformLevels` (utils/waveform-levels), or null without peaks. */
  wave: string | null;
};

export type EmbedData = {
  tracks: EmbedTrack[];
  /** The start time of the first track, in seconds (`?t=`). */
  start: number;
  /** Where plays are reported (`/api/plays`). */
  beacon: string;
  /** The signed host of the embedding site, or null when the page had no foreign Referer. */
  token: string | null;
};
