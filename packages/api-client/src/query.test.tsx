// @vitest-environment jsdom
import { QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AuthError, HttpError } from './index';
import { createQueryClient, retryOnce, usePendingVariables } from './query';

describe('retryOnce', () => {
  it('never retries a 4xx, retries a network or server error once', () => {
    expect(retryOnce(0, new HttpError(404, ''))).toBe(false);
    expect(retryOnce(0, new AuthError(''))).toBe(false);
    expect(retryOnce(0, new HttpError(503, ''))).toBe(true);
    expect(retryOnce(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryOnce(1, new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('usePendingVariables', () => {
  it('lists the variables of the mutations still running, each until it settles', async () => {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const answers = new Map<number, () => void>();
    const { result } = renderHook(
      () => ({
        cancel: useMutation({
          mutationKey: ['cancel'],
          mutationFn: (id: number) => new Promise<void>((resolve) => answers.set(id, resolve)),
        }),
        pending: usePendingVariables<number>(['cancel']),
      }),
      { wrapper },
    );
    let first!: Promise<void>;
    act(() => {
      first = result.current.cancel.mutateAsync(7);
      void result.current.cancel.mutateAsync(8);
    });
    await waitFor(() => expect(result.current.pending.sort()).toEqual([7, 8]));
    await act(async () => {
      answers.get(7)!();
      await first;
    });
    await waitFor(() => expect(result.current.pending).toEqual([8]));
  });
});
