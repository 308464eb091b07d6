import { describe, expect, it } from 'vitest';
import { demoPrefill } from './LoginPage';

describe('the login prefill (SPEC §9 "Defaults", issue 30)', () => {
  it('is the demo customer for company code 1 only while the server runs the demo', () => {
    expect(demoPrefill('1', true)).toEqual({ username: 'pricer1', password: 'pricer123' });
    expect(demoPrefill('1', false)).toBeNull();
    expect(demoPrefill('1', undefined)).toBeNull(); // not known yet
    expect(demoPrefill('2', true)).toBeNull();
  });
});
