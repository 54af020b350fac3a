import { useCallback, useEffect, useMemo, useState } from 'react';

import { parseFavourites } from './player-machine';
import { FAVOURITES_STORAGE_KEY, readStorage, writeStorage } from './player-storage';

/** The page action of the heart's form without JS (app/routes/_account+/account_.favourites.tsx). */
export const FAVOURITES_ACTION = '/account/favourites';

async function callFavourites(
  path: string,
  method: 'PUT' | 'DELETE' | 'POST',
  body?: unknown,
): Promise<number[] | null> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    // A heart given just before leaving the page still reaches the server.
    keepalive: true,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  if (response.status === 204) return null;
  const data = (await response.json()) as { trackIds?: unknown };
  return Array.isArray(data.trackIds) ? data.trackIds.filter((x) => typeof x === 'number') : null;
}

/**
 * Favourite track ids (decision 019). A visitor's live in local storage (restored after
 * hydration). A member's (`account`, from the root loader) live in the account: the heart
 * calls /api/favorites and shows the change at once (undone if the call fails). The first
 * time a member is seen, favourites kept in this browser before logging in are merged into
 * the account (POST /api/favorites) and the local copy is cleared.
 */
export function useFavourites(account: readonly number[] | null) {
  const [local, setLocal] = useState<number[]>([]);
  const [mine, setMine] = useState<number[] | null>(account ? [...account] : null);
  const accountKey = account ? account.join(',') : null;

  useEffect(() => {
    setLocal(parseFavourites(readStorage(FAVOURITES_STORAGE_KEY)));
  }, []);

  // The server's list wins whenever it changes (a login, a logout, a revalidation).
  useEffect(() => {
    setMine(account ? [...account] : null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the ids, not the array
  }, [accountKey]);

  const member = accountKey !== null;
  useEffect(() => {
    if (!member || local.length === 0) return;
    const ids = local;
    writeStorage(FAVOURITES_STORAGE_KEY, JSON.stringify([]));
    setLocal([]);
    callFavourites('/api/favorites', 'POST', { trackIds: ids })
      .then((merged) => merged && setMine(merged))
      .catch((error: unknown) => {
        // Keep them for the next try rather than lose them.
        writeStorage(FAVOURITES_STORAGE_KEY, JSON.stringify(ids));
        console.error('Merging favourites failed', error);
      });
  }, [member, local]);

  const favourites = mine ?? local;
  const isFavourite = useCallback((id: number) => favourites.includes(id), [favourites]);
  const toggleFavourite = useCallback(
    (id: number) => {
      if (mine) {
        const adding = !mine.includes(id);
        const before = mine;
        setMine(adding ? [...mine, id] : mine.filter((x) => x !== id));
        callFavourites(`/api/favorites/${id}`, adding ? 'PUT' : 'DELETE').catch(
          (error: unknown) => {
            setMine(before);
            console.error('Saving a favourite failed', error);
          },
        );
        return;
      }
      setLocal((prev) => {
        const nextIds = prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id];
        writeStorage(FAVOURITES_STORAGE_KEY, JSON.stringify(nextIds));
        return nextIds;
      });
    },
    [mine],
  );

  // One object while none of the three changes: the player's context value depends on it.
  return useMemo(
    () => ({ favourites, isFavourite, toggleFavourite }),
    [favourites, isFavourite, toggleFavourite],
  );
}
