import { describe, expect, it } from 'vitest';
import { parseAddTraderArgs } from './addTrader';
import { FailureLimiter } from '../platform/auth/rateLimit';
import { UriRules } from './redirectUris';
import { escapeHtml, loginPage } from './pages';

describe('UriRules', () => {
  const rules = new UriRules(['https://pfp.example/trader', 'https://pfp.example/trader/*']);

  it('allows the exact URIs and anything canonical below a prefix', () => {
    for (const uri of [
      'https://pfp.example/trader',
      'https://pfp.example/trader/',
      'https://pfp.example/trader/dashboard',
      'https://pfp.example/trader/a/b?c=d',
    ])
      expect(rules.allows(uri), uri).toBe(true);
    expect(rules.registered()).toEqual(['https://pfp.example/trader', 'https://pfp.example/trader/']);
  });

  it('refuses look-alikes', () => {
    for (const uri of [
      'https://pfp.example/traderx',
      'https://pfp.example/trader/../admin',
      'https://pfp.example/trader/%2e%2e/admin',
      'https://pfp.example/trader/#frag',
      'https://user@pfp.example/trader/',
      'http://pfp.example/trader/',
      'https://pfp.example.evil/trader/',
      'https://PFP.example/trader/x',
      '/trader/',
      undefined,
    ])
      expect(rules.allows(uri), String(uri)).toBe(false);
  });

  it('rejects patterns that would match other hosts or paths', () => {
    expect(() => new UriRules(['https://pfp.example*'])).toThrow();
    expect(() => new UriRules(['https://pfp.example/trader*'])).toThrow();
    expect(() => new UriRules(['not a uri'])).toThrow();
  });
});

describe('FailureLimiter', () => {
  it('limits after max failures within the window, per key', () => {
    const limiter = new FailureLimiter(3, 1000);
    for (let i = 0; i < 3; i++) {
      expect(limiter.isLimited('a', 100)).toBe(false);
      limiter.fail('a', 100 + i);
    }
    expect(limiter.isLimited('a', 200)).toBe(true);
    expect(limiter.isLimited('b', 200)).toBe(false);
    expect(limiter.isLimited('a', 1101)).toBe(false);
    limiter.fail('a', 1200);
    limiter.reset('a');
    expect(limiter.isLimited('a', 1200)).toBe(false);
  });

  it('stays bounded', () => {
    const limiter = new FailureLimiter(1, 60_000, 100);
    for (let i = 0; i < 1000; i++) limiter.fail(`k${i}`, 0);
    expect(limiter.isLimited('k999', 1)).toBe(true);
    expect(limiter.isLimited('k0', 1)).toBe(false);
  });
});

describe('views', () => {
  it('escapes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('renders the login page in Chinese', () => {
    const html = loginPage({
      action: '/realms/pfp/login-actions/abc',
      productName: '快期点价宝',
      username: 'u"1',
      error: '用户名或密码错误',
    });
    expect(html).toContain('<title>贸易商登录 - 快期点价宝</title>');
    expect(html).toContain('action="/realms/pfp/login-actions/abc"');
    expect(html).toContain('value="u&#34;1"');
    expect(html).toContain('role="alert">用户名或密码错误');
  });
});

describe('addTrader arguments', () => {
  it('parses flags, taking the password from PASSWORD when not given', () => {
    expect(
      parseAddTraderArgs(['--username', 'u', '--password', 'p', '--name', '张三', '--email', 'z@x.cn'], {}),
    ).toEqual({
      username: 'u',
      password: 'p',
      name: '张三',
      email: 'z@x.cn',
      id: undefined,
    });
    expect(parseAddTraderArgs(['--username', 'u'], { PASSWORD: 'from-env' }).password).toBe('from-env');
    expect(() => parseAddTraderArgs(['--username', 'u'], {})).toThrow(/usage/);
    expect(() => parseAddTraderArgs(['--user', 'u'], {})).toThrow();
  });
});
