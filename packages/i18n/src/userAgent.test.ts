import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './userAgent';

/** The audit log's 浏览器 column (issue 30): the browsers our customers and traders use, in Chinese. */
describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      '电脑 · Chrome 浏览器 · Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
      '手机 · 微信 · iOS',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      '电脑 · Safari 浏览器 · macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
      '电脑 · Edge 浏览器 · Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/98.0.4758.101 Mobile Safari/537.36',
      '手机 · Chrome 浏览器 · Android',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      '平板 · Safari 浏览器 · iPadOS',
    ],
    ['curl/8.5.0', '程序 · 命令行工具'],
    ['lightMyRequest', '电脑 · 未知浏览器 · 未知系统'],
  ])('%s → %s', (ua, label) => {
    expect(describeUserAgent(ua)).toBe(label);
  });

  it('shows a dash for a row without a browser (the server’s own actions)', () => {
    expect(describeUserAgent(null)).toBe('-');
    expect(describeUserAgent('')).toBe('-');
  });
});
