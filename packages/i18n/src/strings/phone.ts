/** The console on a phone (issue 41): the margin page's account cards. */
export const phone = {
  margin: {
    /** Above the cards: who is in a call and how much in all. */
    callsSummary: (n: number, total: string) => `${n} 位客户需追加保证金，共 ${total} 元`,
    noCalls: '没有客户需要追加保证金',
    /** The customer's name opens their account (资金流水) in one tap. */
    openAccount: (name: string) => `查看 ${name} 的资金账户`,
    cards: '客户账户（卡片）',
  },
} as const;
