/**
 * Notifications (docs/notifications.md): the bell and list of the trader console and the customer desk,
 * the webhook settings page, and the texts the server writes when something happens (`texts`: the
 * customer's `mine` and the traders' `desk`, in Chinese; amounts with their units).
 */
import { formatNumber } from '../format';

const unitPrice = (unit: string | null) => (unit ? `元/${unit}` : '点');
const qty = (lots: number, multiplier: number, unit: string | null) =>
  unit ? `${lots} 手（${lots * multiplier} ${unit}）` : `${lots} 手`;
const side: Record<string, string> = { BUY: '买入', SELL: '卖出' };

export interface FillFacts {
  contract: string;
  pricer: string;
  instrument: string;
  direction: string;
  volume: number;
  /** The exchange's fill price (the futures price). */
  price: number;
  basis: number;
  multiplier: number;
  unit: string | null;
}

const money = (n: number) => `${n.toLocaleString('zh-CN', { maximumFractionDigits: 2 })} 元`;
/** As the 点价确认单 prints them: two decimals, thousands separated. */
const two = (n: number) => formatNumber(n, 2);
/** 点价价格 (futures + basis) and the goods amount, the figures of the 点价确认单 (issue 41). */
const fixed = (price: number, basis: number, lots: number, multiplier: number, unit: string | null) => {
  const fixedPrice = price + basis;
  return `点价价格 ${two(fixedPrice)} ${unitPrice(unit)}（期货成交价 ${two(price)} + 基差 ${two(basis)}），货款金额 ${two(fixedPrice * lots * multiplier)} 元`;
};

export const notifications = {
  bell: (unread: number) => (unread > 0 ? `通知：${unread} 条未读` : '通知：没有未读'),
  title: '通知',
  empty: '暂无通知',
  markRead: '标为已读',
  markAllRead: '全部已读',
  unread: '未读',
  unreadCount: (n: number) => (n > 0 ? `${n} 条未读` : '没有未读通知'),
  close: '关闭',
  loadFailed: (message: string) => `通知加载失败：${message}`,
  kinds: {
    fill: '点价成交',
    conditional_fired: '条件单已触发',
    conditional_expired: '条件单已过期',
    contract_paused: '合同已暂停点价',
    contract_expired: '合同已过点价截止日',
    contract_rolled: '合同已移仓',
    roll_application: '转月申请与报价',
    deadline_t3: '点价截止提醒（3 个交易日）',
    deadline_t1: '点价截止提醒（1 个交易日）',
    deadline_today: '点价截止日当天',
    margin_call: '追加保证金',
    margin_call_end: '追保解除',
    confirmation_pending: '确认单待确认',
    approval_decided: '复核结果',
  } as Record<string, string>,
  webhook: {
    nav: '通知推送',
    subtitle: '把通知推送到企业微信、钉钉或飞书群机器人；每次推送都带签名（HMAC-SHA256），供接收方核对',
    url: '推送地址（群机器人地址）',
    urlHint: '留空即停用推送；只接受公网地址',
    secret: '签名密钥',
    secretHint: (has: boolean) => (has ? '已设置；留空则保持不变' : '用于 HMAC-SHA256 签名，请与接收方一致'),
    kinds: '推送的事件',
    save: '保存推送设置',
    saved: '推送设置已保存',
    saveFailed: (message: string) => `保存失败：${message}`,
    test: '发送测试消息',
    testHint: '向已保存的推送地址发送一条测试消息，并显示接收方的应答',
    testDelivered: '测试消息已送达',
    testFailed: (message: string) => `测试消息未送达：${message}`,
    noUrl: '请先填写并保存推送地址',
    deliveries: '推送记录',
    deliveriesEmpty: '暂无推送记录',
    columns: {
      id: '编号',
      title: '事件',
      status: '状态',
      attempts: '尝试次数',
      lastStatus: '接收方应答',
      lastError: '错误',
      createdAt: '产生时间',
      deliveredAt: '送达时间',
      nextAt: '下次重试',
    },
  },
  /** What the server writes: `mine` for the customer, `desk` for the company's traders. */
  texts: {
    /** 发送测试消息: what the robot shows. */
    testMessage: {
      title: '测试消息',
      body: '这是一条来自快期点价宝的测试消息：收到即表示通知推送设置正确',
    },
    fill: (f: FillFacts) => {
      const what = `合同「${f.contract}」${side[f.direction] ?? f.direction} ${f.instrument} 成交 ${qty(f.volume, f.multiplier, f.unit)}，${fixed(f.price, f.basis, f.volume, f.multiplier, f.unit)}`;
      return {
        mine: { title: '点价成交', body: what },
        desk: { title: `客户 ${f.pricer} 点价成交`, body: what },
      };
    },
    conditionalFired: (f: {
      contract: string;
      pricer: string;
      id: number;
      lots: number;
      lastPrice: number;
      unit: string | null;
    }) => {
      const what = `合同「${f.contract}」的条件单 #${f.id} 在最新价 ${f.lastPrice} ${unitPrice(f.unit)} 触发，已下点价单 ${f.lots} 手`;
      return {
        mine: { title: '条件单已触发', body: what },
        desk: { title: `客户 ${f.pricer} 的条件单已触发`, body: what },
      };
    },
    conditionalRefused: (f: {
      contract: string;
      pricer: string;
      id: number;
      lots: number;
      lastPrice: number;
      unit: string | null;
      reason: string;
    }) => {
      const what = `合同「${f.contract}」的条件单 #${f.id} 在最新价 ${f.lastPrice} ${unitPrice(f.unit)} 触发，保证金不足未下单，已撤销（${f.reason}），${f.lots} 手已退回可点价数量`;
      return {
        mine: { title: '条件单触发时保证金不足，已撤销', body: what },
        desk: { title: `客户 ${f.pricer} 的条件单触发时保证金不足，已撤销`, body: what },
      };
    },
    conditionalExpired: (f: { contract: string; pricer: string; id: number; lots: number }) => {
      const what = `合同「${f.contract}」的条件单 #${f.id}（${f.lots} 手）已过期，${f.lots} 手已退回可点价数量`;
      return {
        mine: { title: '条件单已过期', body: what },
        desk: { title: `客户 ${f.pricer} 的条件单已过期`, body: what },
      };
    },
    contractPaused: (f: { contract: string; pricer: string }) => ({
      mine: {
        title: '合同已暂停点价',
        body: `合同「${f.contract}」已暂停点价，进行中的点价单已撤销；恢复后可继续点价`,
      },
      desk: { title: '合同已暂停点价', body: `客户 ${f.pricer} 的合同「${f.contract}」已暂停点价` },
    }),
    contractExpired: (f: { contract: string; pricer: string; deadline: string; remaining: number }) => {
      const what = `合同「${f.contract}」已过点价截止日（${f.deadline}），未点价的 ${f.remaining} 手不能再点价`;
      return {
        mine: { title: '合同已过点价截止日', body: what },
        desk: { title: `客户 ${f.pricer} 的合同已过点价截止日`, body: what },
      };
    },
    contractRolled: (f: { contract: string; pricer: string; from: string; to: string; lots: number }) => {
      const what = `合同「${f.contract}」的 ${f.lots} 手已由 ${f.from} 移仓至 ${f.to}`;
      return {
        mine: { title: '合同已移仓', body: what },
        desk: { title: `客户 ${f.pricer} 的合同已移仓`, body: what },
      };
    },
    deadline: (f: { contract: string; pricer: string; deadline: string; days: number; remaining: number }) => {
      const what =
        f.days === 0
          ? `今天是合同「${f.contract}」的点价截止日（${f.deadline}），还有 ${f.remaining} 手未点价，收盘后不能再点价`
          : `合同「${f.contract}」距点价截止日（${f.deadline}）还有 ${f.days} 个交易日，还有 ${f.remaining} 手未点价`;
      const title = f.days === 0 ? '今天是点价截止日' : `点价截止日还有 ${f.days} 个交易日`;
      return { mine: { title, body: what }, desk: { title: `客户 ${f.pricer}：${title}`, body: what } };
    },
    marginCall: (f: { pricer: string; callAmount: number; available: number }) => ({
      mine: {
        title: '追加保证金通知',
        body: `可用保证金 ${money(f.available)}，请追加至少 ${money(f.callAmount)}；追保期间不能新点价`,
      },
      desk: {
        title: `客户 ${f.pricer} 需追加保证金`,
        body: `客户 ${f.pricer} 可用保证金 ${money(f.available)}，需追加 ${money(f.callAmount)}`,
      },
    }),
    marginCallEnd: (f: { pricer: string; available: number }) => ({
      mine: { title: '追保已解除', body: `可用保证金恢复为 ${money(f.available)}，可以继续点价` },
      desk: { title: `客户 ${f.pricer} 追保已解除`, body: `客户 ${f.pricer} 可用保证金 ${money(f.available)}` },
    }),
    confirmationPending: (f: {
      contract: string;
      pricer: string;
      orderId: number;
      lots: number;
      /** The order's average futures price. */
      price: number;
      basis: number;
      multiplier: number;
      unit: string | null;
    }) => {
      const what = `点价单 #${f.orderId}（合同「${f.contract}」，成交 ${f.lots} 手，${fixed(f.price, f.basis, f.lots, f.multiplier, f.unit)}）的点价确认单`;
      return {
        mine: { title: '点价确认单待确认', body: `${what}已生成，请核对后确认` },
        desk: { title: `客户 ${f.pricer} 的确认单待确认`, body: `${what}等待客户确认` },
      };
    },
  },
} as const;
