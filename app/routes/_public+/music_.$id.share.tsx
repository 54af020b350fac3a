import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { RouteDialog } from '~/components/ui/route-dialog';
import { iframeCode } from '~/embed/oembed.server';
import { playlistTracks } from '~/embed/page.server';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { env } from '~/platform/env.server';
import { loadOr503, notFound } from '~/platform/http-errors.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { usePlayer } from '~/player/player-provider';
import { useHydrated } from '~/player/use-hydrated';
import { deepLinkTime, formatClock, parseDeepLinkTime } from '~/utils/media-time';
import { pageTitle } from '~/utils/seo/seo';

/**
 * /music/{id}/share — the track page's "Share / embed" dialog (decision 038), a child route of
 * the track page shown as the admin's RouteDialog: without JavaScript an open dialog in the
 * page with a GET form for the size and theme, the code in a read-only textarea and a preview;
 * with JavaScript a modal that updates the code and the preview as the choice changes, with
 * copy buttons. The preview is a frame of the embed itself: only these pages' CSP allows it.
 */
const HEIGHTS = {
  compact: { label: 'Compact card (120 px high)', height: 120 },
  list: { label: 'Card with a list: this track, then the featured (400 px high)', height: 400 },
} as const;
const WIDTHS = {
  fixed: { label: 'Fixed (600 px)', width: 600 },
  full: { label: 'Full width (100%)', width: '100%' },
} as const;
type Height = keyof typeof HEIGHTS;
type Width = keyof typeof WIDTHS;
/** How many featured tracks follow this one in the "with a list" embed. */
const LIST_LENGTH = 10;

const pick = <K extends string>(choices: Record<K, unknown>, value: string | null, fallback: K) =>
  (Object.keys(choices) as K[]).find((key) => key === value) ?? fallback;

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
    const height = pick<Height>(HEIGHTS, query.get('height'), 'compact');
    const width = pick<Width>(WIDTHS, query.get('width'), 'fixed');
    const theme = query.get('theme') === 'light' ? 'light' : 'dark';
    const t = parseDeepLinkTime(query.get('t'));
    const origin = siteOrigin();
    const options = new URLSearchParams();
    let path = `/embed/tracks/${track.id}`;
    if (height === 'list') {
      const featured = (await playlistTracks([])).map((f) => f.id).filter((f) => f !== track.id);
      path = '/embed/playlist';
      options.set('ids', [track.id, ...featured.slice(0, LIST_LENGTH)].join(','));
    }
    if (theme === 'light') options.set('theme', theme);
    if (t) options.set('t', deepLinkTime(t));
    const src = `${origin}${path}${options.size ? `?${options.toString().replace(/%2C/g, ',')}` : ''}`;
    const size = { width: WIDTHS[width].width, height: HEIGHTS[height].height };
    return {
      id: track.id,
      title: track.title,
      origin,
      link: `${origin}/music/${track.id}${t ? `?t=${deepLinkTime(t)}` : ''}`,
      src,
      size,
      code: iframeCode(
        src,
        size.width,
        size.height,
        `${track.title} by ${track.artist} — ${env.SITE_NAME} player`,
      ),
      height,
      width,
      theme,
      t,
    };
  });
}

const STATUS_MS = 4000;
const buttonClass =
  'inline-flex min-h-10 items-center rounded-lg border border-border px-3 py-2 text-sm font-medium hover:bg-muted';

export default function ShareDialog() {
  const data = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const player = usePlayer();
  const position = player.current?.id === data.id ? Math.floor(player.position) : null;
  const [status, setStatus] = useState('');
  const timer = useRef<number | undefined>(undefined);
  const code = useRef<HTMLTextAreaElement>(null);
  useReturnFocus();
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const say = (text: string) => {
    setStatus(text);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus(''), STATUS_MS);
  };
  const copy = async (text: string, done: string, field?: HTMLTextAreaElement | null) => {
    try {
      await navigator.clipboard.writeText(text);
      say(done);
    } catch {
      field?.select();
      say(field ? 'Press Ctrl+C (⌘C) to copy the selected code' : `Copy this link: ${text}`);
    }
  };

  return (
    <RouteDialog
      title={`Share ${data.title}`}
      description="Copy the link, or the code to embed the player on another site."
      closeTo={`/music/${data.id}`}
      size="lg"
    >
      <div className="space-y-6">
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
          {hydrated ? (
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className={buttonClass}
                onClick={() => copy(data.link, 'Link copied to clipboard')}
              >
                Copy link
              </button>
              {position ? (
                <button
                  type="button"
                  className={buttonClass}
                  onClick={() =>
                    copy(
                      `${data.origin}/music/${data.id}?t=${deepLinkTime(position)}`,
                      'Link copied to clipboard',
                    )
                  }
                >
                  Copy link at current time ({formatClock(position)})
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
        <Form
          method="get"
          // Without JavaScript the answer scrolls back to the dialog, under the track page.
          action={hydrated ? undefined : `/music/${data.id}/share#share-link`}
          replace
          preventScrollReset
          onChange={(event) =>
            submit(event.currentTarget, { replace: true, preventScrollReset: true })
          }
          className="grid gap-4 sm:grid-cols-3"
        >
          <Choices legend="Height" name="height" choices={HEIGHTS} value={data.height} />
          <Choices legend="Width" name="width" choices={WIDTHS} value={data.width} />
          <Choices
            legend="Theme"
            name="theme"
            choices={{ dark: { label: 'Dark' }, light: { label: 'Light' } }}
            value={data.theme}
          />
          {data.t ? (
            <label className="flex items-center gap-2 sm:col-span-3">
              <input type="checkbox" name="t" value={deepLinkTime(data.t)} defaultChecked />
              Start at {formatClock(data.t)}
            </label>
          ) : null}
          {hydrated ? null : (
            <button
              type="submit"
              className="inline-flex min-h-10 w-fit items-center rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground sm:col-span-3"
            >
              Update the code
            </button>
          )}
        </Form>
        <section aria-labelledby="embed-preview-heading" className="space-y-2">
          <h3 id="embed-preview-heading" className="font-semibold">
            Preview
          </h3>
          <Preview data={data} />
        </section>
        <div className="space-y-2">
          <label htmlFor="embed-code" className="block font-semibold">
            Embed code
          </label>
          <textarea
            ref={code}
            id="embed-code"
            readOnly
            rows={5}
            value={data.code}
            className="w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-sm"
          />
          {hydrated ? (
            <button
              type="button"
              className={buttonClass}
              onClick={() => copy(data.code, 'Embed code copied to clipboard', code.current)}
            >
              Copy embed code
            </button>
          ) : null}
          <p className="text-sm text-muted-foreground">
            {hydrated ? '' : 'Select the code and copy it into your page. '}
            Sites that speak oEmbed (WordPress, Discourse, Ghost) only need the link.
          </p>
        </div>
        <p role="status" aria-live="polite" className="min-h-5 text-sm font-medium">
          {status}
        </p>
      </div>
    </RouteDialog>
  );
}

function Choices<K extends string>({
  legend,
  name,
  choices,
  value,
}: {
  legend: string;
  name: string;
  choices: Record<K, { label: string }>;
  value: K;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold">{legend}</legend>
      {(Object.keys(choices) as K[]).map((key) => (
        <label key={key} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={name}
            value={key}
            defaultChecked={value === key}
            className="mt-1"
          />
          {choices[key].label}
        </label>
      ))}
    </fieldset>
  );
}

/** The embed framed at the chosen size (the CSP lets exactly the site's /embed/ in, 038). */
function Preview({ data }: { data: ReturnType<typeof useLoaderData<typeof loader>> }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-dashed border-border p-2">
      <iframe
        key={data.src}
        src={data.src}
        width={data.size.width}
        height={data.size.height}
        title={`Preview of the embedded player for ${data.title}`}
        style={{ border: 0, maxWidth: '100%' }}
        sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
        data-testid="embed-preview"
      />
    </div>
  );
}

/**
 * Focus goes back where it was when the dialog opened (the track page's "Share / embed" link),
 * or to that link when the opener is gone (the player bar's menu closes as it navigates).
 */
function useReturnFocus() {
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );
  useEffect(
    () => () => {
      const target =
        opener && opener !== document.body && opener.isConnected
          ? opener
          : document.getElementById('share-open');
      target?.focus();
    },
    [opener],
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary back={{ to: '/music', label: 'Back to Music' }} />;
}
