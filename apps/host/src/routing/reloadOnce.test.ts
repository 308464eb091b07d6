import { describe, expect, it, vi } from 'vitest';
import { withReloadOnce } from './reloadOnce';

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    size: () => m.size,
  };
}

describe('withReloadOnce', () => {
  it('returns the module and clears the marker on success', async () => {
    const s = memoryStorage();
    s.setItem('pfp:reloaded-after-load-failure', '/trader');
    const reload = vi.fn();
    await expect(withReloadOnce(async () => 42, s, reload, '/trader')).resolves.toBe(42);
    expect(reload).not.toHaveBeenCalled();
    expect(s.size()).toBe(0);
  });

  it('reloads on the first failure and throws on the second (no loop)', async () => {
    const s = memoryStorage();
    const reload = vi.fn();
    const fail = () => Promise.reject(new Error('chunk gone'));
    void withReloadOnce(fail, s, reload, '/trader');
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await expect(withReloadOnce(fail, s, reload, '/trader')).rejects.toThrow('chunk gone');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(s.size()).toBe(0);
  });
});
