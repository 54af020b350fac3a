import type { PlayerState } from './player-machine';

/** What the store holds: the player's state and the favourite track ids. */
export type PlayerSnapshot = {
  player: PlayerState;
  favourites: readonly number[];
};

/**
 * A tiny external store mirroring the provider's state, so that many small readers (one per
 * track card) can subscribe with `useSyncExternalStore` to their own slice — "is this track
 * current / playing", "is it a favourite" — and re-render only when that slice changes,
 * instead of on every change of the whole player context (decision 034, Lighthouse).
 * The provider stays the source of truth and calls `set` after each commit.
 */
export type PlayerStore = {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => PlayerSnapshot;
  /** The first snapshot: what the server rendered, for hydration. */
  getServerSnapshot: () => PlayerSnapshot;
  set: (next: PlayerSnapshot) => void;
};

export function createPlayerStore(initial: PlayerSnapshot): PlayerStore {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    getServerSnapshot: () => initial,
    set(next) {
      if (next.player === snapshot.player && next.favourites === snapshot.favourites) return;
      snapshot = next;
      for (const listener of listeners) listener();
    },
  };
}
