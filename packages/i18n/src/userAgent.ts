import { zh } from './strings';

const t = zh.device;

/**
 * A browser's user-agent in Chinese (issue 30: no raw user-agent reaches a compliance reader): "电脑 ·
 * Chrome 浏览器 · Windows", "手机 · 微信 · iOS". A small ordered table rather than a full parser: the
 * audit log only needs the device, the app or browser and the system; the raw string stays in the
 * tooltip and in the export's own column. Order matters: in-app browsers and Chinese browsers carry
 * Chrome/Safari tokens too, so they are matched first.
 */
const BROWSERS: [keyof typeof t.browsers, RegExp][] = [
  ['wecom', /wxwork/i],
  ['wechat', /MicroMessenger/i],
  ['dingtalk', /DingTalk/i],
  ['alipay', /AlipayClient/i],
  ['quark', /Quark\//i],
  ['uc', /UCBrowser|UCWEB/i],
  ['qq', /MQQBrowser|QQBrowser|\bQQ\//i],
  ['sogou', /SogouMobileBrowser|SE \d.*MetaSr/i],
  ['360', /QihooBrowser|360SE|360EE/i],
  ['huawei', /HuaweiBrowser/i],
  ['xiaomi', /MiuiBrowser|XiaoMi\/MiuiBrowser/i],
  ['samsung', /SamsungBrowser/i],
  ['edge', /Edg(e|A|iOS)?\//],
  ['opera', /OPR\/|Opera/],
  ['firefox', /Firefox\/|FxiOS\//],
  ['chrome', /Chrome\/|CriOS\/|HeadlessChrome/],
  ['safari', /Safari\//],
  ['ie', /MSIE |Trident\//],
  ['curl', /^curl\//i],
  ['script', /^(python-requests|python-urllib|Go-http-client|node-fetch|undici|axios|okhttp|Java\/|Wget)/i],
];

const SYSTEMS: [keyof typeof t.systems, RegExp][] = [
  ['harmony', /HarmonyOS|OpenHarmony/i],
  ['ipados', /iPad/],
  ['ios', /iPhone|iPod/],
  ['android', /Android/],
  ['chromeos', /CrOS/],
  ['windows', /Windows/],
  ['macos', /Mac OS X|Macintosh/],
  ['linux', /Linux|X11/],
];

/** 电脑 / 手机 / 平板 / 程序: what the device is, from the system and the mobile markers. */
function kindOf(ua: string, system: keyof typeof t.systems | undefined, browser: keyof typeof t.browsers | undefined) {
  if (browser === 'curl' || browser === 'script' || /bot|spider|crawler/i.test(ua)) return t.kinds.bot;
  if (system === 'ipados' || /Tablet/i.test(ua) || (system === 'android' && !/Mobile/.test(ua))) return t.kinds.tablet;
  if (system === 'ios' || system === 'android' || system === 'harmony' || /Mobile/.test(ua)) return t.kinds.mobile;
  return t.kinds.desktop;
}

export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua || !ua.trim()) return t.none;
  const browser = BROWSERS.find(([, re]) => re.test(ua))?.[0];
  const system = SYSTEMS.find(([, re]) => re.test(ua))?.[0];
  const parts: string[] = [kindOf(ua, system, browser), browser ? t.browsers[browser] : t.unknownBrowser];
  if (system) parts.push(t.systems[system]);
  else if (browser !== 'curl' && browser !== 'script') parts.push(t.unknownSystem);
  return parts.join(' · ');
}
