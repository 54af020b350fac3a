import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { listTracks } from '~/models/track.server';
import { getTheme } from '~/models/theme.server';

export const meta: MetaFunction = () => [{ title: 'Night Shore' }];

export async function loader() {
  const [tracks, theme] = await Promise.all([listTracks({ limit: 3 }), getTheme()]);
  return { tracks, theme };
}

export default function Home() {
  const { tracks, theme } = useLoaderData<typeof loader>();
  return (
    <div className="container py-16">
      <h1 className="text-5xl font-bold">{theme.heroTitle || 'Echoes of the Night'}</h1>
      <p className="mt-4 text-muted-foreground">{theme.heroText}</p>
      <section className="mt-12">
        <h2 className="text-2xl font-bold">Our Music</h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-3">
          {tracks.map((t) => (
            <li key={t.id} data-testid="track-card" className="rounded-lg border border-border p-4">
              <h3 className="font-semibold">{t.title}</h3>
              <p className="text-sm text-muted-foreground">{t.artist}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
