import { useEffect, useState } from 'react';

import type { PeaksJSON } from '~/types/peaks';
import type { WaveformShape } from '~/utils/waveform-path';

/** Columns of the player bar's waveform (narrower than the track page's). */
const BAR_COLUMNS = 200;

/** Shapes fetched in this tab, by track id (null: that track has no peaks, or they failed). */
const shapes = new Map<number, WaveformShape | null>();

/**
 * The waveform of the player's current track, from `/api/tracks/{id}/peaks` (decision 034):
 * null while it loads, when the track has none (404), or on any error — the bar then shows
 * its plain progress slider. Fetched once per track and tab.
 */
export function useTrackPeaks(trackId: number | null): WaveformShape | null {
  const [shape, setShape] = useState<WaveformShape | null>(() =>
    trackId === null ? null : (shapes.get(trackId) ?? null),
  );
  useEffect(() => {
    if (trackId === null) {
      setShape(null);
      return;
    }
    if (shapes.has(trackId)) {
      setShape(shapes.get(trackId) ?? null);
      return;
    }
    setShape(null);
    const controller = new AbortController();
    fetch(`/api/tracks/${trackId}/peaks`, { signal: controller.signal })
      .then(async (response) => {
        // The drawing code comes with the first waveform (not in every page's first visit).
        const found = response.ok
          ? (await import('~/utils/waveform-path')).waveformShape(
              (await response.json()) as PeaksJSON,
              BAR_COLUMNS,
            )
          : null;
        shapes.set(trackId, found);
        setShape(found);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // A network or parse failure: the plain slider, and another try on the next load.
        void error;
        setShape(null);
      });
    return () => controller.abort();
  }, [trackId]);
  return shape;
}
