import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { loadOr503, notFound } from '~/platform/http-errors.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { iframeCode } from '~/services/oembed.server';
import { deepLinkTime, parseDeepLinkTime } from '~/utils/media-time';
import { pageTitle } from '~/utils/seo/seo';

/**
 * /music/{id}/share — the track's link and embed code without JavaScript (decision 038): the
 * size and theme are a GET form, the code a read-only textarea to select and copy.
 */
const SIZES = {
  compact: { label: 'Compact card (600 × 120)', width: 600, height: 120 },
  wide: { label: 'Full width card (100% × 120)', width: '100%', height: 120 },
  small: { label: 'Narrow card (300 × 120)', width: 300, height: 120 },
} as const;
type Size = keyof typeof SIZES;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  pageTitle(matches, data ? `Share ${data.title}` : 'Share'),
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    const id = parseId(params.id);
    const track = id === null ? null : await getTrack(id);
    if (!track) throw notFound('Track not found');
    const query = new URL(request.url).searchParams;
    const size: Size =
      (Object.keys(SIZES) as Size[]).find((s) => s === query.get('size')) ?? 'compact';
    const theme = query.get('theme') === 'light' ? 'light' : 'dark';
    const t = parseDeepLinkTime(query.get('t'));
    const origin = siteOrigin();
    const embedQuery = new URLSearchParams({
      ...(theme === 'light' ? { theme } : {}),
      ...(t ? { t: deepLinkTime(t) } : {}),
    }).toString();
    const src = `${origin}/embed/tracks/${track.id}${embedQuery ? `?${embedQuery}` : ''}`;
    const { width, height } = SIZES[size];
    return {
      id: track.id,
      title: track.title,
      link: `${origin}/music/${track.id}${t ? `?t=${deepLinkTime(t)}` : ''}`,
      code: iframeCode(src, width, height, `${track.title} by ${track.artist} — player`),
      size,
      theme,
      t: t ? deepLinkTime(t) : '',
    };
  });
}

export default function SharePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="container max-w-2xl space-y-6 pb-16 pt-28">
      <Link to={`/music/${data.id}`} className="text-sm font-semibold text-muted-foreground">
        ← Back to {data.title}
      </Link>
      <h1 className="text-3xl font-bold">Share {data.title}</h1>
      <div className="space-y-2">
        <label htmlFor="share-link" className="block font-semibold">
          Link
        </label>
        <input
          id="share-link"
          readOnly
          value={data.link}
          className="w-full rounded-lg border border-border bg-background px-3 py-2"
        />
      </div>
      <Form method="get" className="space-y-4">
        <fieldset className="space-y-2">
          <legend className="font-semibold">Embed size</legend>
          {(Object.keys(SIZES) as Size[]).map((size) => (
            <label key={size} className="flex items-center gap-2">
              <input type="radio" name="size" value={size} defaultChecked={data.size === size} />
              {SIZES[size].label}
            </label>
          ))}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="font-semibold">Theme</legend>
          {(['dark', 'light'] as const).map((theme) => (
            <label key={theme} className="flex items-center gap-2">
              <input
                type="radio"
                name="theme"
                value={theme}
                defaultChecked={data.theme === theme}
              />
              {theme === 'dark' ? 'Dark' : 'Light'}
            </label>
          ))}
        </fieldset>
        {data.t ? <input type="hidden" name="t" value={data.t} /> : null}
        <button
          type="submit"
          className="inline-flex min-h-10 items-center rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground"
        >
          Update the code
        </button>
      </Form>
      <div className="space-y-2">
        <label htmlFor="embed-code" className="block font-semibold">
          Embed code
        </label>
        <textarea
          id="embed-code"
          readOnly
          rows={5}
          value={data.code}
          className="w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-sm"
        />
        <p className="text-sm text-muted-foreground">
          Select the code and copy it into your page. Sites that speak oEmbed (WordPress, Discourse,
          Ghost) only need the link.
        </p>
      </div>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary back={{ to: '/music', label: 'Back to Music' }} />;
}
