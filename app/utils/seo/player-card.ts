import type { MetaDescriptor } from '@remix-run/node';

import { EMBED_SIZES } from '~/types/constants';

/**
 * What a track page adds to its link card (decision 038): oEmbed discovery, a Twitter/X player
 * card playing the embed, `og:audio` for a public track only (a members-only track's audio is
 * never named), and the 1200×630 card picture in place of the bare cover.
 */
export type PlayerCardInput = {
  origin: string;
  id: number;
  title: string;
  siteName: string;
  /** The audio URL of a public track, null when locked. */
  audio: string | null;
};

const absolute = (origin: string, url: string) =>
  /^https?:\/\//.test(url) ? url : `${origin}${url}`;

export function playerCardMeta(base: MetaDescriptor[], input: PlayerCardInput): MetaDescriptor[] {
  const { origin, id } = input;
  const page = `${origin}/music/${id}`;
  const image = `${origin}/music/${id}/card.jpg`;
  const replaced = base
    .filter((tag) => !('name' in tag && tag.name === 'twitter:card'))
    .map((tag) => {
      if ('property' in tag && tag.property === 'og:image') return { ...tag, content: image };
      if ('name' in tag && tag.name === 'twitter:image') return { ...tag, content: image };
      return tag;
    });
  const oembed = `${origin}/oembed?${new URLSearchParams({ url: page, format: 'json' }).toString()}`;
  return [
    ...replaced,
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/json+oembed',
      href: oembed,
      title: `${input.title} — ${input.siteName}`,
    },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    ...(input.audio
      ? [
          { property: 'og:audio', content: absolute(origin, input.audio) },
          {
            property: 'og:audio:type',
            content: /\.wav$/i.test(input.audio) ? 'audio/wav' : 'audio/mpeg',
          },
        ]
      : []),
    { name: 'twitter:card', content: 'player' },
    { name: 'twitter:player', content: `${origin}/embed/tracks/${id}` },
    { name: 'twitter:player:width', content: String(EMBED_SIZES.compact.width) },
    { name: 'twitter:player:height', content: String(EMBED_SIZES.compact.height) },
  ];
}
