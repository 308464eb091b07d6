/** The SimNow simulation broker (always listed last in {@link BROKERS}). */
export const SIMNOW_BROKER = 'simnow';

/**
 * Chinese futures companies for the broker picker. Each entry is the uppercase
 * initial of its pinyin, a space and the company name; entries are grouped by that
 * letter (A→Z) and followed by {@link SIMNOW_BROKER}.
 */
export const BROKERS: readonly string[] = Object.freeze([
  'A 安粮期货',
  'B 宝城期货',
  'B 渤海期货',
  'C 长江期货',
  'C 创元期货',
  'D 大地期货',
  'D 大越期货',
  'D 东方财富期货',
  'D 东海期货',
  'D 东吴期货',
  'D 东兴期货',
  'D 东证期货',
  'F 方正中期期货',
  'G 格林大华期货',
  'G 冠通期货',
  'G 光大期货',
  'G 广发期货',
  'G 国金期货',
  'G 国泰君安',
  'G 国信期货',
  'G 国元期货',
  'H 海证期货',
  'H 弘业期货',
  'H 宏源期货',
  'H 华安期货',
  'H 华泰期货',
  'H 华西期货',
  'H 华鑫期货',
  'H 徽商期货',
  'H 混沌天成期货',
  'J 建信期货',
  'J 金瑞期货',
  'J 九州期货',
  'M 迈科期货',
  'M 美尔雅期货',
  'N 南华期货',
  'P 平安期货',
  'R 瑞达期货',
  'S 山金期货',
  'S 上海中期期货',
  'S 申银万国期货',
  'S 首创期货',
  'T 铜冠金源期货',
  'W 五矿期货',
  'W 物产中大期货',
  'X 西部期货',
  'X 新湖期货',
  'X 信达期货',
  'X 兴证期货',
  'Y 一德期货',
  'Y 银河期货',
  'Y 英大期货',
  'Y 永安期货',
  'Z 招商期货',
  'Z 浙商期货',
  'Z 中金财富期货',
  'Z 中粮期货',
  'Z 中泰期货',
  'Z 中信期货',
  'Z 中信建投期货',
  'Z 中原期货',
  'Z 紫金天风期货',
  SIMNOW_BROKER,
]);

const KNOWN = new Set<string>();
for (const entry of BROKERS) {
  KNOWN.add(entry);
  const match = /^[A-Z] (.+)$/.exec(entry);
  if (match?.[1] !== undefined) KNOWN.add(match[1]);
}

/**
 * True for a listed broker, given either as the full entry ('H 华泰期货') or as
 * the bare company name ('华泰期货'). Surrounding whitespace is ignored.
 */
export function isKnownBroker(name: string): boolean {
  return KNOWN.has(name.trim());
}
