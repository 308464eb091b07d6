import { describe, expect, it } from 'vitest';
import { CustomerReads } from './customerReads';

describe('CustomerReads', () => {
  it('reads again when the version moved, and keeps the most recently asked answers', async () => {
    const reads = new CustomerReads(2);
    let loads = 0;
    const load = (v: string) => () => Promise.resolve(`${v}#${++loads}`);
    expect(await reads.get('a', '1', load('a'))).toBe('a#1');
    expect(await reads.get('a', '1', load('a'))).toBe('a#1');
    expect(await reads.get('a', '2', load('a'))).toBe('a#2');
    expect(await reads.get('b', '1', load('b'))).toBe('b#3');
    expect(await reads.get('a', '2', load('a'))).toBe('a#2'); // a asked last: b is the oldest now
    expect(await reads.get('c', '1', load('c'))).toBe('c#4'); // drops b
    expect(await reads.get('a', '2', load('a'))).toBe('a#2');
    expect(await reads.get('b', '1', load('b'))).toBe('b#5');
  });

  it('does not keep a failed read', async () => {
    const reads = new CustomerReads();
    await expect(reads.get('a', '1', () => Promise.reject(new Error('数据库暂时不可用')))).rejects.toThrow();
    expect(await reads.get('a', '1', () => Promise.resolve('ok'))).toBe('ok');
  });
});
