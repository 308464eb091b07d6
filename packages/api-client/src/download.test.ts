import { describe, expect, it } from 'vitest';
import { attachmentName } from './download';

describe('attachmentName', () => {
  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    const header = `attachment; filename="fixings_2026-01-01_2026-01-31.xlsx"; filename*=UTF-8''${encodeURIComponent('点价确认单_2026-01-01_2026-01-31.xlsx')}`;
    expect(attachmentName(header, 'x')).toBe('点价确认单_2026-01-01_2026-01-31.xlsx');
    expect(attachmentName('attachment; filename="a.csv"', 'x')).toBe('a.csv');
    expect(attachmentName("attachment; filename*=UTF-8''%E0%A4%A", 'x')).toBe('x');
    expect(attachmentName(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
