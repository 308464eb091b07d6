// @vitest-environment jsdom
import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AuthError, HttpError } from './index';
import { createQueryClient, readAgain, retryOnce, setPushed, usePendingVariables } from './query';

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

describe('readAgain', () => {
  it('reads again after a change even while the first load is still on its way, and shows the newer answer', async () => {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The server's rows: the first read is answered before the change but arrives after it.
    let rows = ['112'];
    const reads: { rows: string[]; answer: () => void }[] = [];
    const { result } = renderHook(
      () =>
        useQuery({
          queryKey: ['orders'],
          queryFn: () =>
            new Promise<string[]>((resolve) => {
              const read = { rows, answer: () => resolve(read.rows) };
              reads.push(read);
            }),
        }),
      { wrapper },
    );
    await waitFor(() => expect(reads).toHaveLength(1));
    rows = ['113', '112']; // an order is placed; the push says the data moved
    act(() => void readAgain(client, ['orders']));
    act(() => reads[0]!.answer()); // the stale first answer arrives late
    await waitFor(() => expect(reads).toHaveLength(2));
    act(() => reads[1]!.answer());
    await waitFor(() => expect(result.current.data).toEqual(['113', '112']));
  });
});

describe('setPushed', () => {
  it('shows the pushed rows even while the first load is still on its way, and keeps them when it answers late', async () => {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const reads: { answer: () => void }[] = [];
    const { result } = renderHook(
      () =>
        useQuery({
          queryKey: ['orders', 7],
          queryFn: () =>
            new Promise<string[]>((resolve) => {
              reads.push({ answer: () => resolve(['112']) });
            }),
        }),
      { wrapper },
    );
    await waitFor(() => expect(reads).toHaveLength(1));
    // The push carries the rows after the change; the first read, answered before it, arrives after.
    await act(() => setPushed(client, ['orders', 7], ['113', '112']));
    act(() => reads[0]!.answer());
    await waitFor(() => expect(result.current.data).toEqual(['113', '112']));
    await new Promise((r) => setTimeout(r, 50));
    expect(result.current.data).toEqual(['113', '112']);
    expect(reads).toHaveLength(1); // no read again: the push had the rows
  });

  it('applies pushes to one query in the order they came', async () => {
    const client = createQueryClient();
    void setPushed(client, ['bell'], 1);
    void setPushed(client, ['bell'], 2);
    await setPushed(client, ['bell'], 3);
    expect(client.getQueryData(['bell'])).toBe(3);
  });
});
