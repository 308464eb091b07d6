import { describe, it, expect } from 'vitest';
import { BROKERS, SIMNOW_BROKER, isKnownBroker } from './brokers';

describe('BROKERS', () => {
  const companies = BROKERS.slice(0, -1);

  it('has between 55 and 70 entries', () => {
    expect(BROKERS.length).toBeGreaterThanOrEqual(55);
    expect(BROKERS.length).toBeLessThanOrEqual(70);
  });

  it('ends with simnow', () => {
    expect(SIMNOW_BROKER).toBe('simnow');
    expect(BROKERS[BROKERS.length - 1]).toBe('simnow');
    expect(BROKERS.indexOf('simnow')).toBe(BROKERS.length - 1);
  });

  it('prefixes every company with an uppercase letter and a space', () => {
    for (const b of companies) expect(b).toMatch(/^[A-Z] \p{Script=Han}+$/u);
  });

  it('is sorted by initial letter', () => {
    const letters = companies.map((b) => b[0] ?? '');
    expect(letters).toEqual([...letters].sort());
  });

  it('has no duplicates', () => {
    expect(new Set(BROKERS).size).toBe(BROKERS.length);
    expect(new Set(companies.map((b) => b.slice(2))).size).toBe(companies.length);
  });

  it('includes well-known companies with the right initials', () => {
    for (const b of ['B 宝城期货', 'D 东证期货', 'G 国泰君安', 'H 华泰期货', 'Y 永安期货', 'Z 中信期货']) {
      expect(BROKERS).toContain(b);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(BROKERS)).toBe(true);
  });
});

describe('isKnownBroker', () => {
  it('accepts full entries, bare names and simnow', () => {
    expect(isKnownBroker('H 华泰期货')).toBe(true);
    expect(isKnownBroker('华泰期货')).toBe(true);
    expect(isKnownBroker(' 永安期货 ')).toBe(true);
    expect(isKnownBroker('simnow')).toBe(true);
  });

  it('rejects unknown names', () => {
    expect(isKnownBroker('')).toBe(false);
    expect(isKnownBroker('不存在期货')).toBe(false);
    expect(isKnownBroker('X 华泰期货')).toBe(false);
    expect(isKnownBroker('SIMNOW')).toBe(false);
  });
});
