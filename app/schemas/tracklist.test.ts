import { describe, expect, it } from 'vitest';

import { TrackFieldsSchema } from './track';
import { parseTracklist, TRACKLIST_LIMITS, tracklistMessage, tracklistText } from './tracklist';

const messages = (text: string, duration?: number) =>
  parseTracklist(text, duration).problems.map(tracklistMessage);

describe('parseTracklist', () => {
  it('reads TIME ARTIST - TITLE [LABEL] rows, h:mm:ss and m:ss, blank lines ignored', () => {
    const { rows, problems } = parseTracklist(
      [
        '0:00 Night Shore - Intro',
        '',
        '  4:05 Floorplan - Never Grow Old [M-Plant]  ',
        '62:30 Robert Hood – Minus [M-Plant]',
        '1:02:31 DJ Rush - Motherfucking House - Edit [  ]',
      ].join('\r\n'),
    );
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { start: 0, artist: 'Night Shore', title: 'Intro', label: null },
      { start: 245, artist: 'Floorplan', title: 'Never Grow Old', label: 'M-Plant' },
      { start: 3750, artist: 'Robert Hood', title: 'Minus', label: 'M-Plant' },
      { start: 3751, artist: 'DJ Rush', title: 'Motherfucking House - Edit', label: null },
    ]);
    expect(parseTracklist('').rows).toEqual([]);
    expect(parseTracklist('\n  \n').problems).toEqual([]);
  });

  it('names the line of every problem, counting blank lines', () => {
    expect(
      messages(
        [
          '0:00 A - B',
          '',
          'Floorplan - Never Grow Old',
          '1:2:3 A - B',
          '5:00 Floorplan Never Grow Old',
          '6:00  - Title',
          '7:00 Artist - ',
          '8:00 Artist - Title [Label] extra',
          '0:00 Late - Row',
          '9:60 A - B',
          '9:00',
        ].join('\n'),
      ),
    ).toEqual([
      'Line 3: "Floorplan" is not a start time: write m:ss or h:mm:ss (e.g. 4:05 or 1:02:30)',
      'Line 4: "1:2:3" is not a start time: write m:ss or h:mm:ss (e.g. 4:05 or 1:02:30)',
      'Line 5: separate the artist and the title with " - " (TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant])',
      'Line 6: separate the artist and the title with " - " (TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant])',
      'Line 7: separate the artist and the title with " - " (TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant])',
      'Line 8: the label must be last, in square brackets: [LABEL]',
      'Line 9: starts at 0:00, not after line 1 (0:00): start times must go up',
      'Line 10: "9:60" is not a start time: write m:ss or h:mm:ss (e.g. 4:05 or 1:02:30)',
      'Line 11: write the row as TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant]',
    ]);
  });

  it('refuses a start time that repeats or goes back', () => {
    expect(messages('1:00 A - B\n1:00 C - D\n0:59 E - F')).toEqual([
      'Line 2: starts at 1:00, not after line 1 (1:00): start times must go up',
      'Line 3: starts at 0:59, not after line 2 (1:00): start times must go up',
    ]);
  });

  it('refuses a row after the end of the track when its duration is known', () => {
    expect(messages('0:00 A - B\n1:30:01 C - D', 5400)).toEqual([
      'Line 2: starts at 1:30:01, after the end of the track (1:30:00)',
    ]);
    expect(messages('0:00 A - B\n1:30:01 C - D', 0)).toEqual([]);
  });

  it('enforces the lengths and the number of rows', () => {
    const long = (n: number) => 'x'.repeat(n);
    expect(messages(`0:00 ${long(TRACKLIST_LIMITS.artist + 1)} - T`)).toEqual([
      `Line 1: the artist is longer than ${TRACKLIST_LIMITS.artist} characters`,
    ]);
    expect(messages(`0:00 A - ${long(TRACKLIST_LIMITS.title + 1)}`)).toEqual([
      `Line 1: the title is longer than ${TRACKLIST_LIMITS.title} characters`,
    ]);
    expect(messages(`0:00 A - T [${long(TRACKLIST_LIMITS.label + 1)}]`)).toEqual([
      `Line 1: the label is longer than ${TRACKLIST_LIMITS.label} characters`,
    ]);
    expect(messages(`0:00 A - ${long(TRACKLIST_LIMITS.line)}`)).toEqual([
      `Line 1: the line is longer than ${TRACKLIST_LIMITS.line} characters`,
    ]);
    const many = Array.from({ length: TRACKLIST_LIMITS.rows + 1 }, (_, i) => `${i}:00 A - T`);
    expect(messages(many.join('\n'))).toEqual([
      `The tracklist has ${TRACKLIST_LIMITS.rows + 1} rows; at most ${TRACKLIST_LIMITS.rows} are allowed`,
    ]);
    expect(messages(long(TRACKLIST_LIMITS.text + 1))).toEqual([
      `The tracklist is longer than ${TRACKLIST_LIMITS.text} characters`,
    ]);
  });

  it('writes rows back as the text it reads', () => {
    const text = '0:00 A - B\n1:02:30 Floorplan - Never Grow Old [M-Plant]';
    expect(tracklistText(parseTracklist(text).rows)).toBe(text);
  });
});

describe('the track schema', () => {
  const base = { title: 'Radio 01', type: 'Mix' };

  it('parses the tracklist and h:mm:ss durations', () => {
    const parsed = TrackFieldsSchema.parse({
      ...base,
      duration: '1:30:00',
      description: ' Notes ',
      tracklist: '0:00 A - B\n1:02:30 C - D [E]',
    });
    expect(parsed.duration).toBe('1:30:00');
    expect(parsed.description).toBe('Notes');
    expect(parsed.tracklist?.rows).toEqual([
      { start: 0, artist: 'A', title: 'B', label: null },
      { start: 3750, artist: 'C', title: 'D', label: 'E' },
    ]);
    expect(TrackFieldsSchema.parse(base).tracklist).toBeUndefined();
    expect(TrackFieldsSchema.parse({ ...base, tracklist: '' }).tracklist?.rows).toEqual([]);
  });

  it('puts every line-numbered problem on the tracklist field', () => {
    const result = TrackFieldsSchema.safeParse({
      ...base,
      tracklist: '0:00 A - B\n\nnot a row\n0:10 C',
    });
    expect(result.success).toBe(false);
    const issues = result.success ? [] : result.error.issues;
    expect(issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['tracklist', expect.stringMatching(/^Line 3: /)],
      ['tracklist', expect.stringMatching(/^Line 4: /)],
    ]);
  });

  it('a tracklist with bad rows and a typed duration: only the rows are reported', () => {
    const result = TrackFieldsSchema.safeParse({ ...base, duration: '10:00', tracklist: 'bad' });
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^Line 1: /),
    ]);
  });

  it('checks the rows against a typed duration, naming the line', () => {
    const result = TrackFieldsSchema.safeParse({
      ...base,
      duration: '10:00',
      tracklist: '0:00 A - B\n\n12:00 C - D',
    });
    expect(result.success).toBe(false);
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual([
      'Line 3: starts at 12:00, after the end of the track (10:00)',
    ]);
  });

  it('refuses unknown types and the legacy ones', () => {
    for (const type of ['Remix', 'Live', 'Mixtape']) {
      expect(TrackFieldsSchema.safeParse({ ...base, type }).success).toBe(false);
    }
    expect(TrackFieldsSchema.safeParse({ ...base, duration: '3 minutes' }).success).toBe(false);
  });
});
