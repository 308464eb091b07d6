import {
  deskSnapshot,
  LIVE_VIEWS,
  myConditionalRequest,
  myOrdersRequest,
  notificationsPage,
  pricerDeskParams,
  safeParseZh,
  firstIssue,
  traderDeskParams,
  type LiveQuote,
  type PricerAccount,
  type PricerDeskPatch,
  type TraderDeskPatch,
} from '@pfp/contract';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { verifyPricerSession } from '../../platform/auth/pricerSessions';
import type { PricerTokens } from '../../platform/auth/pricerTokens';
import type { TraderVerifier } from '../../platform/auth/traderTokens';
import { every } from '../../platform/every';
import type { DB } from '../../platform/db/schema';
import type { Logger } from '../../platform/logger';
import type { Quote, QuoteOf } from '../../platform/quote';
import { WsError, type ViewSource } from '../../platform/ws/registry';
import { myConditionals } from '../conditional/views';
import { pricerDeskSnapshot } from '../customers/snapshot';
import { markToMarket, pricedBy, type AccountRow } from '../margin/accounts';
import { readNotifications } from '../notifications/inbox';
import { myOrders } from '../orders/views';

/** The desk's table of the open contract's orders and 条件单 (apps/pricer DESK_ORDER_LIMIT), and its bell. */
const DESK_ROWS = 50;
const BELL_ROWS = 50;

/** Who a WebSocket token is (main.ts authenticates it): a customer, with the token's version, or a trader. */
export type LiveCaller =
  | {
      kind: 'pricer';
      tenantId: number;
      userId: number;
      tokenVersion: number;
      /** An 授权点价人's own login (docs/authorised-pricers.md): its person and that person's token version. */
      person?: { id: number; version: number };
    }
  | { kind: 'trader'; sub: string };

/** Who a WebSocket token is: a trader's (identity provider) or a customer's live session; false when neither. */
export function liveCaller(
  deps: { db: Kysely<DB>; traderVerifier: TraderVerifier; pricerTokens: PricerTokens },
  token: string,
): Promise<LiveCaller | false> {
  return Promise.any([
    deps.traderVerifier.verify(token).then((t): LiveCaller => ({ kind: 'trader', sub: t.sub })),
    verifyPricerSession(deps.db, deps.pricerTokens, token).then((p): LiveCaller => ({
      kind: 'pricer',
      tenantId: p.tenantId,
      userId: p.userId,
      tokenVersion: p.version,
      ...(p.personId === undefined ? {} : { person: { id: p.personId, version: p.personVersion! } }),
    })),
  ]).catch(() => false as const);
}

/**
 * The company a signed-in WebSocket caller's volatility views count against (platform/ws SignedInBudget, issue 40):
 * a customer's company, a trader's (the trader alone while it has none).
 */
export function liveAccount(tenantOf: (sub: string) => Promise<number>, caller: LiveCaller): Promise<string> {
  if (caller.kind === 'pricer') return Promise.resolve(`company:${caller.tenantId}`);
  return tenantOf(caller.sub).then(
    (id) => `company:${id}`,
    () => `trader:${caller.sub}`,
  );
}

export interface LiveDeps {
  db: Kysely<DB>;
  quote: QuoteOf;
  onTick(listener: (quotes: readonly Quote[], at: number) => void): () => void;
  /** The trader's company (throws while the trader has none). */
  tenantOf(sub: string): Promise<number>;
  logger: Logger;
  /** How often the data versions are read (default 100 ms: a fill reaches the desk well within 1 s). */
  watchMs?: number;
}

type Push = (patch: Record<string, unknown>) => void;
interface DeskSub {
  push: Push;
  tokenVersion: number;
  person?: { id: number; version: number };
  /** The open contract's page it is sent (`contractId:limit`), if it named one. */
  page?: string;
}
/** The open contract's latest orders and 条件单 as they travel (the my-orders and my-conditional-orders pages). */
interface Page {
  contractId: number;
  limit: number;
  orders: unknown;
  conditionals: unknown;
}
interface Desk {
  tenantId: number;
  userId: number;
  version: string;
  /** The snapshot without its orders, as it travels (wire form). */
  snapshot: unknown;
  /** The bell's answer, as it travels. */
  notifications: unknown;
  /** The open contracts' pages, by `contractId:limit`, while a desk has one open. */
  pages: Map<string, Page>;
  symbols: string[];
  /** What holds the customer's margin (read with the snapshot), the instruments whose ticks move it, and the account as last sent. */
  holdings?: AccountRow;
  pricedBy: Set<string>;
  account?: PricerAccount;
  subs: Set<DeskSub>;
}
interface Company {
  version: string;
  subs: Set<Push>;
}

const price = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/**
 * The live desks (docs/live.md). One watcher reads the data versions of every subscribed customer and company
 * every `watchMs` in one query each (platform/db/dataVersions.ts's counters, raised by every writer on every instance); a
 * customer whose version moved gets its snapshot re-read once and the one patch object goes to all its desks. Market
 * ticks go out as one patch per instrument, shared by every desk holding it (encoded once, ws/connection.ts).
 */
export class LiveHub {
  private readonly desks = new Map<number, Desk>();
  private readonly opening = new Map<number, Promise<Desk>>();
  private readonly bySymbol = new Map<string, Set<Desk>>();
  private readonly ticks = new Map<string, number>();
  private readonly companies = new Map<number, Company>();
  private readonly stopTicks: () => void;
  private readonly watcher;

  constructor(private readonly deps: LiveDeps) {
    this.stopTicks = deps.onTick((quotes, at) => this.onTick(quotes, at));
    this.watcher = every('live desks', deps.watchMs ?? 100, () => this.watch(), deps.logger);
  }

  /** The view sources to register on the WebSocket server. */
  sources(): [string, ViewSource][] {
    return [
      [
        LIVE_VIEWS.pricerDesk,
        { public: false, subscribe: (params, push, caller) => this.subscribeDesk(params, push, caller) },
      ],
      [
        LIVE_VIEWS.traderDesk,
        { public: false, subscribe: (params, push, caller) => this.subscribeCompany(params, push, caller) },
      ],
    ];
  }

  async close() {
    this.stopTicks();
    await this.watcher.stop();
  }

  /** How many customers and companies are watched (tests, bench). */
  get watched() {
    return { desks: this.desks.size, companies: this.companies.size };
  }

  private async subscribeDesk(params: Record<string, unknown>, push: Push, caller: unknown) {
    const who = caller as LiveCaller | undefined;
    if (who?.kind !== 'pricer') throw new WsError('UNAUTHORIZED', '实时看板需要以客户身份登录');
    const parsed = safeParseZh(pricerDeskParams, params);
    if (!parsed.success) throw new WsError('BAD_PARAMS', firstIssue(parsed.error).message);
    // Only the token's own customer: another's is refused and nothing of it is read.
    if (parsed.data.user_id !== undefined && parsed.data.user_id !== who.userId)
      throw new WsError('UNAUTHORIZED', '无权订阅其他客户的数据');
    const desk = await this.openDesk(who.tenantId, who.userId);
    const { contract_id, limit = DESK_ROWS } = parsed.data;
    const sub: DeskSub = { push, tokenVersion: who.tokenVersion, ...(who.person ? { person: who.person } : {}) };
    // Held by this desk from now on: the watcher drops a customer nobody holds while the page below is read.
    desk.subs.add(sub);
    let page: Page | undefined;
    if (contract_id !== undefined) {
      sub.page = `${contract_id}:${limit}`;
      try {
        page = desk.pages.get(sub.page) ?? (await this.readPage(desk, contract_id, limit));
      } catch (err) {
        desk.subs.delete(sub);
        if (desk.subs.size === 0) this.dropDesk(desk);
        throw err;
      }
      desk.pages.set(sub.page, page);
    }
    const initial: PricerDeskPatch = {
      version: desk.version,
      quotes: this.quotesOf(desk.symbols, Date.now()),
      ...(desk.account ? { account: desk.account } : {}),
    };
    // Resume: a client that holds this version missed nothing; any other gets the state re-read.
    if (parsed.data.since !== desk.version) {
      initial.snapshot = desk.snapshot as PricerDeskPatch['snapshot'];
      initial.notifications = desk.notifications as PricerDeskPatch['notifications'];
    }
    // A contract just opened: its rows, whatever the version (the client may hold none of them).
    if (page) Object.assign(initial, this.pagePatch(page));
    return {
      initial,
      close: () => {
        desk.subs.delete(sub);
        if (desk.subs.size === 0) return this.dropDesk(desk);
        if (sub.page && ![...desk.subs].some((s) => s.page === sub.page)) desk.pages.delete(sub.page);
      },
    };
  }

  /** The open contract's latest orders and 条件单, read as the desk's HTTP calls read them. */
  private async readPage(desk: Desk, contractId: number, limit: number): Promise<Page> {
    const who = { tenantId: desk.tenantId, pricerId: desk.userId };
    const body = {
      contract_id: contractId,
      sort_fields: [{ field: 'id', ascending: false }],
      slice_start: 0,
      slice_end: limit,
    };
    const [orders, conditionals] = await Promise.all([
      myOrders(this.deps.db, who, myOrdersRequest.parse(body)),
      myConditionals(this.deps.db, who, myConditionalRequest.parse(body)),
    ]);
    // The rows as the HTTP answers write them (a Date through its toJSON).
    return {
      contractId,
      limit,
      orders: JSON.parse(JSON.stringify(orders)),
      conditionals: JSON.parse(JSON.stringify(conditionals)),
    };
  }

  private pagePatch(page: Page): Pick<PricerDeskPatch, 'orders' | 'conditionals'> {
    return {
      orders: page.orders as PricerDeskPatch['orders'],
      conditionals: page.conditionals as PricerDeskPatch['conditionals'],
    };
  }

  private openDesk(tenantId: number, userId: number): Promise<Desk> {
    const known = this.desks.get(userId);
    if (known) return Promise.resolve(known);
    let opening = this.opening.get(userId);
    if (!opening) {
      opening = (async () => {
        const [row] = await this.readVersions([userId]);
        const desk: Desk = {
          tenantId,
          userId,
          version: row?.version ?? '0',
          snapshot: undefined,
          notifications: undefined,
          pages: new Map(),
          symbols: [],
          pricedBy: new Set(),
          subs: new Set(),
        };
        await this.readDesk(desk);
        this.desks.set(userId, desk);
        return desk;
      })().finally(() => this.opening.delete(userId));
      this.opening.set(userId, opening);
    }
    return opening;
  }

  private dropDesk(desk: Desk) {
    if (this.desks.get(desk.userId) !== desk) return;
    this.desks.delete(desk.userId);
    this.index(desk, []);
  }

  /**
   * What the desk shows — the snapshot without its orders, the bell, the open contracts' pages — read after its
   * version (so it is at least as new as the version it is sent with).
   */
  private async readDesk(desk: Desk) {
    const who = { tenantId: desk.tenantId, pricerId: desk.userId };
    const [{ data, holdings }, bell, pages] = await Promise.all([
      pricerDeskSnapshot(this.deps.db, who, this.deps.quote),
      readNotifications(this.deps.db, { ...who, audience: 'pricer' }, { limit: BELL_ROWS, unread_only: false }),
      Promise.all([...desk.pages.values()].map((p) => this.readPage(desk, p.contractId, p.limit))),
    ]);
    for (const c of data.contracts) this.ticks.set(c.instrument_id, c.price_tick);
    desk.snapshot = z.encode(deskSnapshot, data);
    desk.holdings = holdings;
    desk.pricedBy = pricedBy(holdings);
    desk.account = data.account;
    desk.notifications = z.encode(notificationsPage, bell);
    for (const p of pages) desk.pages.set(`${p.contractId}:${p.limit}`, p);
    this.index(desk, [...new Set(data.contracts.map((c) => c.instrument_id))]);
  }

  private index(desk: Desk, symbols: string[]) {
    for (const s of desk.symbols) {
      const set = this.bySymbol.get(s);
      set?.delete(desk);
      if (set?.size === 0) this.bySymbol.delete(s);
    }
    desk.symbols = symbols;
    for (const s of symbols) {
      let set = this.bySymbol.get(s);
      if (!set) this.bySymbol.set(s, (set = new Set()));
      set.add(desk);
    }
  }

  private entry(symbol: string, q: ReturnType<QuoteOf>, at: number): LiveQuote {
    return {
      last_price: price(q?.last_price),
      price_tick: this.ticks.get(symbol) ?? 0,
      upper_limit: price(q?.upper_limit),
      lower_limit: price(q?.lower_limit),
      bid_price: price(q?.bid_price1),
      ask_price: price(q?.ask_price1),
      tick_time: at,
    };
  }

  private quotesOf(symbols: string[], at: number) {
    const out: Record<string, LiveQuote> = {};
    for (const s of symbols) out[s] = this.entry(s, this.deps.quote(s), at);
    return out;
  }

  private onTick(quotes: readonly Quote[], at: number) {
    const moved = new Set<Desk>();
    const ticked = new Map<string, Quote>();
    for (const q of quotes) {
      ticked.set(q.symbol, q);
      const desks = this.bySymbol.get(q.symbol);
      if (!desks) continue;
      // One patch object per instrument and tick, whatever the number of desks: its JSON is built once.
      const patch = { quotes: { [q.symbol]: this.entry(q.symbol, q, at) } };
      for (const d of desks) {
        for (const s of d.subs) s.push(patch);
        if (d.pricedBy.has(q.symbol)) moved.add(d);
      }
    }
    if (!moved.size) return;
    const lastPrice = (s: string) => price((ticked.get(s) ?? this.deps.quote(s))?.last_price) ?? undefined;
    for (const d of moved) this.markDesk(d, lastPrice);
  }

  /**
   * The desk's account marked to the market again, in memory (what holds its margin was read with the snapshot):
   * the floating P/L, available and the call move with the quotes (issue 41). Sent when a figure changed.
   */
  private markDesk(desk: Desk, lastPrice: (symbol: string) => number | undefined) {
    if (!desk.holdings) return;
    const account = markToMarket(desk.holdings, lastPrice);
    const was = desk.account;
    if (
      was &&
      was.floating_pnl === account.floating_pnl &&
      was.margin_required === account.margin_required &&
      was.available === account.available
    )
      return;
    desk.account = account;
    const patch: PricerDeskPatch = { account };
    for (const s of desk.subs) s.push(patch);
  }

  /**
   * The 授权点价人 signed in on a watched desk with their own login: a 停用 or a password reset ends that desk's live
   * session at the next watch, as it ends their HTTP one, and leaves the customer's and other persons' desks open.
   */
  private async readPersons() {
    const ids = [...this.desks.values()].flatMap((d) => [...d.subs].flatMap((s) => (s.person ? [s.person.id] : [])));
    if (ids.length === 0) return new Map<number, { active: boolean; token_version: number }>();
    const rows = await this.deps.db
      .selectFrom('authorised_pricers')
      .select(['id', 'active', 'token_version'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  private readVersions(ids: number[]) {
    return this.deps.db
      .selectFrom('pricer_users')
      .select((eb) => [
        'id',
        'status',
        'token_version',
        eb
          .selectFrom('pricer_data_versions')
          .select((v) => v.fn.sum<string>('version').as('v'))
          .whereRef('pricer_data_versions.pricer_id', '=', 'pricer_users.id')
          .as('version'),
      ])
      .where('id', 'in', ids)
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, version: String(r.version ?? 0) })));
  }

  private async watch() {
    await Promise.all([this.watchDesks(), this.watchCompanies()]);
  }

  private async watchDesks() {
    if (this.desks.size === 0) return;
    const [rows, persons] = await Promise.all([this.readVersions([...this.desks.keys()]), this.readPersons()]);
    const seen = new Set<number>();
    await Promise.all(
      rows.map(async (row) => {
        seen.add(row.id);
        const desk = this.desks.get(row.id);
        if (!desk) return;
        // A deactivated customer or a reset password ends the live session as it ends the HTTP one.
        for (const s of desk.subs) {
          const person = s.person && persons.get(s.person.id);
          const personEnded = s.person && (!person?.active || person.token_version !== s.person.version);
          if (row.status === 'inactive' || row.token_version !== s.tokenVersion || personEnded) {
            s.push({ ended: true });
            desk.subs.delete(s);
          }
        }
        if (desk.subs.size === 0) return this.dropDesk(desk);
        if (row.version === desk.version) return;
        // The version only once what the desk shows is read: a failed read is tried again at the next watch.
        await this.readDesk(desk);
        desk.version = row.version;
        const patch: PricerDeskPatch = {
          version: desk.version,
          snapshot: desk.snapshot as PricerDeskPatch['snapshot'],
          notifications: desk.notifications as PricerDeskPatch['notifications'],
          // The account as marked now: an older tick's account still pending in a connection is overwritten by it.
          ...(desk.account ? { account: desk.account } : {}),
        };
        // One patch object per open contract, whatever the number of desks holding it (encoded once).
        const byPage = new Map<string | undefined, PricerDeskPatch>([[undefined, patch]]);
        for (const [key, page] of desk.pages) byPage.set(key, { ...patch, ...this.pagePatch(page) });
        for (const s of desk.subs) s.push(byPage.get(s.page) ?? patch);
      }),
    );
    for (const desk of [...this.desks.values()]) {
      if (seen.has(desk.userId)) continue;
      for (const s of desk.subs) s.push({ ended: true });
      this.dropDesk(desk);
    }
  }

  private async subscribeCompany(params: Record<string, unknown>, push: Push, caller: unknown) {
    const who = caller as LiveCaller | undefined;
    if (who?.kind !== 'trader') throw new WsError('UNAUTHORIZED', '实时控制台需要以贸易商身份登录');
    const parsed = safeParseZh(traderDeskParams, params);
    if (!parsed.success) throw new WsError('BAD_PARAMS', firstIssue(parsed.error).message);
    const tenantId = await this.deps.tenantOf(who.sub).catch(() => {
      throw new WsError('UNAUTHORIZED', '请先保存设置');
    });
    let company = this.companies.get(tenantId);
    if (!company) {
      const [version] = await this.readCompanyVersions([tenantId]);
      company = this.companies.get(tenantId) ?? { version: version?.version ?? '0', subs: new Set() };
      this.companies.set(tenantId, company);
    }
    const c = company;
    c.subs.add(push);
    const initial: TraderDeskPatch = { version: c.version };
    return {
      initial,
      close: () => {
        c.subs.delete(push);
        if (c.subs.size === 0 && this.companies.get(tenantId) === c) this.companies.delete(tenantId);
      },
    };
  }

  private readCompanyVersions(tenantIds: number[]) {
    return this.deps.db
      .selectFrom('pricer_users')
      .innerJoin('pricer_data_versions', 'pricer_data_versions.pricer_id', 'pricer_users.id')
      .select((eb) => ['pricer_users.tenant_id', eb.fn.sum<string>('pricer_data_versions.version').as('version')])
      .where('pricer_users.tenant_id', 'in', tenantIds)
      .groupBy('pricer_users.tenant_id')
      .execute()
      .then((rows) => rows.map((r) => ({ tenantId: r.tenant_id, version: String(r.version ?? 0) })));
  }

  private async watchCompanies() {
    if (this.companies.size === 0) return;
    for (const row of await this.readCompanyVersions([...this.companies.keys()])) {
      const c = this.companies.get(row.tenantId);
      if (!c || c.version === row.version) continue;
      c.version = row.version;
      const patch: TraderDeskPatch = { version: row.version };
      for (const push of c.subs) push(patch);
    }
  }
}
