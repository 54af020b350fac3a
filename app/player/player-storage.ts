export const PLAYER_STORAGE_KEY = 'night-shore:player';
export const FAVOURITES_STORAGE_KEY = 'night-shore:favourites';

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (privacy mode, sandboxed frame)
  }
}

export function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Quota or disabled storage: the player still works, it just won't be restored.
  }
}
