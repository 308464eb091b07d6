import { describe, expect, it } from 'vitest';
import { portalLink, qrPixelSize, qrVersionFor } from './portalLink';

describe('portal link', () => {
  it('is {origin}/pricer/{tenant_id}', () => {
    expect(portalLink('http://127.0.0.1:8091', 12)).toBe('http://127.0.0.1:8091/pricer/12');
    expect(portalLink('https://pfp.example.com/', 3)).toBe('https://pfp.example.com/pricer/3');
  });

  it('picks the smallest QR version at level L (byte mode capacities 17, 32, 53…)', () => {
    expect(qrVersionFor('x'.repeat(17))).toBe(1);
    expect(qrVersionFor('x'.repeat(18))).toBe(2);
    expect(qrVersionFor('http://127.0.0.1:8091/pricer/12')).toBe(2);
    expect(qrVersionFor('https://pfp.example.com/pricer/123456')).toBe(3);
    // Multi-byte characters count in UTF-8 bytes.
    expect(qrVersionFor('点'.repeat(6))).toBe(2);
  });

  it('draws 4 px modules with a 4 px margin', () => {
    // Version 2 is 25 modules: 25 × 4 + 2 × 4.
    expect(qrPixelSize('http://127.0.0.1:8091/pricer/12')).toBe(108);
  });

  it('reports an overlong link like the encoder does', () => {
    expect(() => qrVersionFor('x'.repeat(300))).toThrow('code length overflow');
  });
});
