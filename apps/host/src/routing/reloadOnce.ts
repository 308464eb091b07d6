const KEY = 'pfp:reloaded-after-load-failure';

/**
 * SPEC §8: a route module that fails to load reloads the page (a new deploy may have replaced
 * its chunks). Only once per path: a second failure goes to the router's error screen instead
 * of a reload loop.
 */
export async function withReloadOnce<T>(
  load: () => Promise<T>,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = sessionStorage,
  reload: () => void = () => window.location.reload(),
  path: string = window.location.pathname,
): Promise<T> {
  try {
    const value = await load();
    storage.removeItem(KEY);
    return value;
  } catch (error) {
    if (storage.getItem(KEY) !== path) {
      storage.setItem(KEY, path);
      reload();
      // Keep the router waiting while the page reloads.
      return new Promise<T>(() => {});
    }
    storage.removeItem(KEY);
    throw error;
  }
}
