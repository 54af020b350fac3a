import { z } from 'zod';

import type { TracklistRow } from '~/types/entities';
import { formatClock, parseClock } from '~/utils/media-time';

/**
 * A mix's tracklist as the admin types it (the form's textarea and the `tracklist` field of
 * POST/PUT /api/admin/tracks), one row per line:
 *
 *   TIME ARTIST - TITLE [LABEL]        e.g.  1:02:30 Floorplan - Never Grow Old [M-Plant]
 *
 * TIME is `m:ss` or `h:mm:ss`; ARTIST and TITLE are split at the first " - " (an en or em
 * dash works too), so a title may hold more dashes; `[LABEL]` at the end is optional.
 * The rules (decision 034): blank lines are ignored (errors still name the line as typed);
 * start times go strictly up; no row starts after the track's duration when it is known;
 * at most TRACKLIST_LIMITS.rows rows, and the lengths below.
 */
export const TRACKLIST_LIMITS = {
  rows: 300,
  text: 40_000,
  line: 500,
  artist: 200,
  title: 200,
  label: 100,
} as const;

export const TRACKLIST_FORMAT =
  'TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant]';

export type TracklistProblem = { line: number; message: string };

const ROW = /^(\S+)\s+(.+)$/;
const SEPARATOR = /\s+[-–—]\s+/;
const LABEL = /\s*\[([^[\]]*)\]$/;

/** Reads one non-blank line; a problem's message without its line number. */
function readRow(line: string): TracklistRow | string {
  if (line.length > TRACKLIST_LIMITS.line) {
    return `the line is longer than ${TRACKLIST_LIMITS.line} characters`;
  }
  const row = ROW.exec(line);
  if (!row) return `write the row as ${TRACKLIST_FORMAT}`;
  const start = parseClock(row[1]);
  if (start === null) {
    return `"${row[1]}" is not a start time: write m:ss or h:mm:ss (e.g. 4:05 or 1:02:30)`;
  }
  let rest = row[2].trim();
  let label: string | null = null;
  const labelMatch = LABEL.exec(rest);
  if (labelMatch) {
    label = labelMatch[1].trim() || null;
    rest = rest.slice(0, labelMatch.index).trim();
  } else if (rest.includes('[')) {
    return 'the label must be last, in square brackets: [LABEL]';
  }
  const separator = SEPARATOR.exec(rest);
  if (!separator) return `separate the artist and the title with " - " (${TRACKLIST_FORMAT})`;
  const artist = rest.slice(0, separator.index).trim();
  const title = rest.slice(separator.index + separator[0].length).trim();
  if (!artist) return 'the artist is missing';
  if (!title) return 'the title is missing';
  if (artist.length > TRACKLIST_LIMITS.artist) {
    return `the artist is longer than ${TRACKLIST_LIMITS.artist} characters`;
  }
  if (title.length > TRACKLIST_LIMITS.title) {
    return `the title is longer than ${TRACKLIST_LIMITS.title} characters`;
  }
  if (label && label.length > TRACKLIST_LIMITS.label) {
    return `the label is longer than ${TRACKLIST_LIMITS.label} characters`;
  }
  return { start, artist, title, label };
}

/**
 * Parses the text into rows, or lists every problem with its (1-based) line number.
 * `durationSeconds`: the track's length when known (> 0); no row may start after it.
 */
export function parseTracklist(
  text: string,
  durationSeconds?: number | null,
): { rows: TracklistRow[]; problems: TracklistProblem[] } {
  const rows: TracklistRow[] = [];
  const problems: TracklistProblem[] = [];
  if (text.length > TRACKLIST_LIMITS.text) {
    return {
      rows,
      problems: [
        { line: 0, message: `The tracklist is longer than ${TRACKLIST_LIMITS.text} characters` },
      ],
    };
  }
  let previous: { start: number; line: number } | null = null;
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const number = i + 1;
    const read = readRow(line);
    if (typeof read === 'string') {
      problems.push({ line: number, message: read });
      continue;
    }
    if (previous && read.start <= previous.start) {
      problems.push({
        line: number,
        message: `starts at ${formatClock(read.start)}, not after line ${previous.line} (${formatClock(previous.start)}): start times must go up`,
      });
    } else if (durationSeconds && durationSeconds > 0 && read.start > durationSeconds) {
      problems.push({
        line: number,
        message: `starts at ${formatClock(read.start)}, after the end of the track (${formatClock(durationSeconds)})`,
      });
    }
    previous = { start: read.start, line: number };
    rows.push(read);
  }
  if (rows.length > TRACKLIST_LIMITS.rows) {
    problems.push({
      line: 0,
      message: `The tracklist has ${rows.length} rows; at most ${TRACKLIST_LIMITS.rows} are allowed`,
    });
  }
  return { rows, problems };
}

/** A problem as shown under the field and answered by the API: "Line 3: …". */
export function tracklistMessage(problem: TracklistProblem): string {
  return problem.line > 0 ? `Line ${problem.line}: ${problem.message}` : problem.message;
}

/** A chapter's or a row's title: "Artist – Title [Label]". */
export function tracklistRowTitle(row: TracklistRow): string {
  return `${row.artist} – ${row.title}${row.label ? ` [${row.label}]` : ''}`;
}

/** The rows written back as text, one per line (the edit form's default value). */
export function tracklistText(rows: readonly TracklistRow[]): string {
  return rows
    .map((r) => `${formatClock(r.start)} ${r.artist} - ${r.title}${r.label ? ` [${r.label}]` : ''}`)
    .join('\n');
}

/** The tracklist field's value: the rows, and the line each was typed on (for later checks). */
export type TracklistInput = { rows: TracklistRow[]; lines: number[] };

/**
 * The tracklist field: text in, rows out (undefined when the field was not sent, so the API's
 * PUT leaves the stored tracklist alone; '' clears it). Each problem is one issue on the field.
 * The check against the duration needs the other fields: see `checkTracklistDuration`.
 */
export const TracklistField = z
  .string({ invalid_type_error: 'The tracklist must be text, one row per line' })
  .optional()
  .transform((text, ctx): TracklistInput | undefined => {
    if (text === undefined) return undefined;
    const { rows, problems } = parseTracklist(text);
    for (const problem of problems) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: tracklistMessage(problem) });
    }
    if (problems.length > 0) return z.NEVER;
    const lines: number[] = [];
    text.split(/\r\n|\r|\n/).forEach((line, i) => {
      if (line.trim() !== '') lines.push(i + 1);
    });
    return { rows, lines };
  });

/**
 * The rows that start after the end of the track, each as its field message ("Line 4: starts
 * at …, after the end of the track (…)").
 */
export function tracklistPastEnd(tracklist: TracklistInput, durationSeconds: number): string[] {
  const { rows, lines } = tracklist;
  return rows.flatMap((row, i) =>
    row.start <= durationSeconds
      ? []
      : [
          tracklistMessage({
            line: lines[i],
            message: `starts at ${formatClock(row.start)}, after the end of the track (${formatClock(durationSeconds)})`,
          }),
        ],
  );
}

/**
 * No row may start after the end of the track when its duration was typed in (a superRefine
 * of the track's fields). A duration read from the audio is checked when the track is saved,
 * once the file is there (app/services/track-save.server.ts, decision 034).
 */
export function checkTracklistDuration(
  value: { tracklist?: TracklistInput; duration?: string },
  ctx: z.RefinementCtx,
) {
  const duration = value.duration ? parseClock(value.duration) : null;
  // A tracklist that failed its own checks has already said why (and has no rows here).
  if (!duration || !Array.isArray(value.tracklist?.rows)) return;
  for (const message of tracklistPastEnd(value.tracklist, duration)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['tracklist'], message });
  }
}
