import { tracklistRowTitle } from '~/schemas/tracklist';
import type { TracklistRow } from '~/types/entities';
import { formatClock } from '~/utils/media-time';
import { escapeXml } from '~/utils/seo/feeds';
import { httpDate } from '~/utils/time';

/**
 * Pure builders for the podcast feeds (decision 037): RSS 2.0 with the Apple (`itunes:`) and
 * Podcasting 2.0 (`podcast:`) namespaces, and Podcasting 2.0 chapters JSON. Every URL given
 * here is already absolute (from siteOrigin(), never from the request).
 */

export type PodcastEpisode = {
  /** Stored on the track when it is created (never its title, file or host): stable across edits and domain moves. */
  guid: string;
  title: string;
  artist: string;
  link: string;
  pubDate: string;
  description: string | null;
  tracklist: TracklistRow[];
  durationSeconds: number;
  enclosure: { url: string; length: number; type: string };
  image: string;
  chaptersUrl: string | null;
};

export type PodcastChannel = {
  title: string;
  link: string;
  selfUrl: string;
  description: string;
  language: string;
  image: string;
  author: string;
  ownerName: string;
  ownerEmail: string;
  guid: string;
  episodes: PodcastEpisode[];
  now?: Date;
};

/** The episode's notes: its description, then the tracklist one row a line. */
export function episodeNotes(episode: Pick<PodcastEpisode, 'description' | 'tracklist'>): string {
  const parts: string[] = [];
  if (episode.description?.trim()) parts.push(episode.description.trim());
  if (episode.tracklist.length > 0) {
    parts.push(
      [
        'Tracklist:',
        ...episode.tracklist.map((r) => `${formatClock(r.start)} ${tracklistRowTitle(r)}`),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** The notes as HTML (content:encoded): paragraphs and line breaks, every text escaped. */
function notesHtml(notes: string): string {
  return notes
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split('\n').map(escapeXml).join('<br>')}</p>`)
    .join('');
}

export function podcastRssXml(input: PodcastChannel): string {
  const lastBuild = input.episodes[0]?.pubDate ?? (input.now ?? new Date()).toISOString();
  const items = input.episodes.map((e) => {
    const notes = episodeNotes(e);
    return [
      '    <item>',
      `      <title>${escapeXml(e.title)}</title>`,
      `      <guid isPermaLink="false">${escapeXml(e.guid)}</guid>`,
      `      <pubDate>${httpDate(e.pubDate)}</pubDate>`,
      `      <link>${escapeXml(e.link)}</link>`,
      // Readers treat both as HTML: the text is escaped into HTML, then that into XML
      // (entities, not CDATA: a "]]>" in a description cannot end a section early).
      `      <description>${escapeXml(notesHtml(notes || e.title))}</description>`,
      `      <content:encoded>${escapeXml(notesHtml(notes || e.title))}</content:encoded>`,
      `      <enclosure url="${escapeXml(e.enclosure.url)}" length="${e.enclosure.length}" type="${escapeXml(e.enclosure.type)}"/>`,
      `      <itunes:title>${escapeXml(e.title)}</itunes:title>`,
      `      <itunes:author>${escapeXml(e.artist)}</itunes:author>`,
      `      <itunes:duration>${Math.max(0, Math.round(e.durationSeconds))}</itunes:duration>`,
      `      <itunes:image href="${escapeXml(e.image)}"/>`,
      '      <itunes:explicit>false</itunes:explicit>',
      '      <itunes:episodeType>full</itunes:episodeType>',
      ...(e.chaptersUrl
        ? [
            `      <podcast:chapters url="${escapeXml(e.chaptersUrl)}" type="application/json+chapters"/>`,
          ]
        : []),
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" ' +
      'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" ' +
      'xmlns:podcast="https://podcastindex.org/namespace/1.0" ' +
      'xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '  <channel>',
    `    <title>${escapeXml(input.title)}</title>`,
    `    <link>${escapeXml(input.link)}</link>`,
    `    <description>${escapeXml(input.description)}</description>`,
    `    <language>${escapeXml(input.language)}</language>`,
    `    <lastBuildDate>${httpDate(lastBuild)}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(input.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `    <image><url>${escapeXml(input.image)}</url><title>${escapeXml(input.title)}</title><link>${escapeXml(input.link)}</link></image>`,
    `    <itunes:image href="${escapeXml(input.image)}"/>`,
    '    <itunes:category text="Music"/>',
    '    <itunes:explicit>false</itunes:explicit>',
    '    <itunes:type>episodic</itunes:type>',
    `    <itunes:author>${escapeXml(input.author)}</itunes:author>`,
    `    <itunes:summary>${escapeXml(input.description)}</itunes:summary>`,
    '    <itunes:owner>',
    `      <itunes:name>${escapeXml(input.ownerName)}</itunes:name>`,
    `      <itunes:email>${escapeXml(input.ownerEmail)}</itunes:email>`,
    '    </itunes:owner>',
    `    <podcast:guid>${escapeXml(input.guid)}</podcast:guid>`,
    `    <podcast:locked owner="${escapeXml(input.ownerEmail)}">no</podcast:locked>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** Podcasting 2.0 chapters (version 1.2.0) of a tracklist. */
export function chaptersJson(tracklist: TracklistRow[]): {
  version: '1.2.0';
  chapters: { startTime: number; title: string }[];
} {
  return {
    version: '1.2.0',
    chapters: tracklist.map((row) => ({ startTime: row.start, title: tracklistRowTitle(row) })),
  };
}
