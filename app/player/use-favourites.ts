import { useCallback, useEffect, useState } from 'react';
import { parseFavourites } from './player-machine';
import { FAVOURITES_STORAGE_KEY, readStorage, writeStorage } from './player-storage';

/** The visitor's favourite track ids, kept in local storage (restored after hydration). */
export function useFavourites() {
  const [favourites, setFavourites] = useState<number[]>([]);

  useEffect(() => {
    setFavourites(parseFavourites(readStorage(FAVOURITES_STORAGE_KEY)));
  }, []);

  const isFavourite = useCallback((id: number) => favourites.includes(id), [favourites]);
  const toggleFavourite = useCallback((id: number) => {
    setFavourites((prev) => {
      const nextIds = prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id];
      writeStorage(FAVOURITES_STORAGE_KEY, JSON.stringify(nextIds));
      return nextIds;
    });
  }, []);

  return { favourites, isFavourite, toggleFavourite };
}
