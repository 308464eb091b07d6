import { describe, expect, it } from 'vitest';
import { typedNameTag } from './typedName';

describe('typedNameTag (issue 30: failed logins do not log the typed name)', () => {
  it('is a short tag, the same for one name (any case), not the name', () => {
    const tag = typedNameTag('MySecretPassw0rd');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(tag).not.toContain('MySecret');
    expect(typedNameTag('mysecretpassw0rd')).toBe(tag);
    expect(typedNameTag('other')).not.toBe(tag);
  });
});
