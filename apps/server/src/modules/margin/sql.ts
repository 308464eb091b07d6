import { sqlFunction, trigger, view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** Margin's SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const MARGIN_SQL: readonly SqlObject[] = [
  /**
   * What holds a customer's margin, summed per contract (arithmetic.ts InstrumentSums, in 元): its fixed, not yet
   * settled lots, the unfilled rest of its open orders and its waiting 条件单, of contracts with a margin rate.
   * Orders and 条件单 are summed before the contract and instrument are joined (a join per contract, not per
   * order); the tenant_id / pricer_id columns of each branch are its grouping columns, so a filter on them reaches
   * the rows before they are summed.
   */
  view(
    'v_margin_sums',
    `
    select c.tenant_id, c.pricer_id, c.instrument_id, true as fixed,
             greatest(c.avg_price + c.basis, 0) * l.lots * coalesce(i.volume_multiple, 1) * c.margin_rate as priced,
             0::numeric as at_market, 0::numeric as at_market_basis,
             l.sign * l.lots * coalesce(i.volume_multiple, 1) as net_lots,
             l.sign * c.avg_price * l.lots * coalesce(i.volume_multiple, 1) as net_value
        from contracts c
        cross join lateral (select c.executed_quantity - c.settled_quantity as lots,
                                   case when c.direction = 'BUY' then 1 else -1 end as sign) l
        left join instruments i on i.symbol = c.instrument_id
       where c.executed_quantity > c.settled_quantity and c.margin_rate > 0
      union all
      select o.tenant_id, o.pricer_id, o.instrument_id, false,
             o.priced * coalesce(i.volume_multiple, 1) * c.margin_rate,
             o.market_lots * coalesce(i.volume_multiple, 1) * c.margin_rate,
             o.market_basis * coalesce(i.volume_multiple, 1) * c.margin_rate, 0, 0
        from (select o.tenant_id, o.pricer_id, o.contract_id, o.instrument_id,
                     sum(case when o.limit_price > 0
                              then greatest(o.limit_price + o.basis, 0) * (o.volume_orign - o.volume_traded)
                              else 0 end) as priced,
                     sum(case when o.limit_price > 0 then 0 else o.volume_orign - o.volume_traded end) as market_lots,
                     sum(case when o.limit_price > 0 then 0 else o.basis * (o.volume_orign - o.volume_traded) end)
                       as market_basis
                from orders o
               where o.status in ('PENDING', 'ALIVE') and o.volume_orign > o.volume_traded
               group by o.tenant_id, o.pricer_id, o.contract_id, o.instrument_id) o
        join contracts c on c.id = o.contract_id and c.margin_rate > 0
        left join instruments i on i.symbol = o.instrument_id
      union all
      select w.tenant_id, w.pricer_id, w.instrument_id, false,
             w.valued * coalesce(i.volume_multiple, 1) * c.margin_rate, 0, 0, 0, 0
        from (select w.tenant_id, w.pricer_id, w.contract_id, w.instrument_id,
                     sum(greatest(coalesce(w.margin_price,
                                           case when w.order_price > 0 then w.order_price else w.trigger_price end)
                                  + c.basis, 0) * w.quantity) as valued
                from conditional_orders w join contracts c on c.id = w.contract_id
               where w.status = 'WAITING'
               group by w.tenant_id, w.pricer_id, w.contract_id, w.instrument_id) w
        join contracts c on c.id = w.contract_id and c.margin_rate > 0
        left join instruments i on i.symbol = w.instrument_id`,
  ),
  /**
   * The margin check of a fixing inside the fixing's own statement (issue 31 §7, docs/margin.md "Cost"): locks the
   * customer's account row (contract with a rate), then reads what holds their margin — a VOLATILE function takes a
   * fresh snapshot for each statement, so the read after the lock sees every fixing of theirs committed before it
   * — values it at the prices handed in (jsonb symbol → price, null = no quote) and raises, rolling the whole
   * fixing back: PFM01 when a price it needs was not handed in (detail: the symbols; the caller retries with them),
   * PFM02 when the money does not back the fixing (detail: reason call | short | no_market and the amounts).
   * Answers whether the contract carries a margin rate. The arithmetic is arithmetic.ts's figuresFromSums, rounded
   * to the fen at the same points.
   */
  sqlFunction(
    'margin_check',
    `(p_tenant integer, p_pricer integer, p_contract integer, p_lots integer,
                                 p_price numeric, p_prices jsonb, p_conditional bigint default null) returns boolean
    language plpgsql volatile as $$
    declare
      k record;
      a record;
      s record;
      market numeric;
      margin numeric := 0;
      pnl numeric := 0;
      held numeric;
      available numeric;
      need numeric;
      missing text[] := '{}';
    begin
      select c.margin_rate as rate, coalesce(i.volume_multiple, 1) as multiplier, c.instrument_id, c.basis
        into k from contracts c left join instruments i on i.symbol = c.instrument_id where c.id = p_contract;
      if k.rate > 0 then
        -- Lock order (docs/margin.md): the customer's data version before their account.
        insert into pricer_data_versions (pricer_id, shard, version)
        values (p_pricer, (pg_current_xact_id()::text::bigint % 8)::smallint, 1)
        on conflict (pricer_id, shard) do update set version = pricer_data_versions.version + 1;
        -- A row lock, no new row version (the account is created on first use).
        select balance, credit_line into a from pricer_accounts where pricer_id = p_pricer for update;
        if not found then
          insert into pricer_accounts (pricer_id, tenant_id) values (p_pricer, p_tenant) on conflict do nothing;
          select balance, credit_line into a from pricer_accounts where pricer_id = p_pricer for update;
        end if;
      else
        -- No margin on this contract: only a customer in a recorded margin call is checked (not locked).
        select balance, credit_line, in_call into a from pricer_accounts where pricer_id = p_pricer;
        if not found or not a.in_call then return false; end if;
      end if;
      if k.rate > 0 and p_price <= 0 and not p_prices ? k.instrument_id then
        missing := missing || k.instrument_id;
      end if;
      for s in
        select h.instrument_id, sum(h.priced) as priced, bool_or(h.at_market <> 0) as any_market,
               array_agg(h.at_market) as at_market, array_agg(h.at_market_basis) as at_market_basis,
               bool_or(h.fixed) as fixed, sum(h.net_lots) as net_lots, sum(h.net_value) as net_value
          from v_margin_sums h
         where h.pricer_id = p_pricer and h.tenant_id = p_tenant
         group by h.instrument_id
      loop
        if (s.any_market or s.fixed) and not p_prices ? s.instrument_id then
          missing := missing || s.instrument_id;
          continue;
        end if;
        market := (p_prices ->> s.instrument_id)::numeric;
        margin := margin + s.priced;
        -- Open market orders, per contract (one basis each), at the live price: never below 0.
        for i in 1 .. cardinality(s.at_market) loop
          margin := margin + greatest(coalesce(market, 0) * s.at_market[i] + s.at_market_basis[i], 0);
        end loop;
        if market is not null then pnl := pnl + market * s.net_lots - s.net_value; end if;
      end loop;
      if cardinality(missing) > 0 then
        raise exception using errcode = 'PFM01', message = 'margin_check: prices not handed in',
          detail = to_jsonb(missing)::text;
      end if;
      if p_conditional is not null then
        -- The firing 条件单's own hold, as v_margin_sums counts it.
        select greatest(coalesce(w.margin_price, case when w.order_price > 0 then w.order_price else w.trigger_price end)
                        + c.basis, 0) * w.quantity * coalesce(i.volume_multiple, 1) * c.margin_rate
          into held
          from conditional_orders w join contracts c on c.id = w.contract_id
          left join instruments i on i.symbol = w.instrument_id
         where w.id = p_conditional and w.status = 'WAITING' and c.margin_rate > 0;
        margin := margin - coalesce(held, 0);
      end if;
      if k.rate > 0 then
        market := case when p_price > 0 then p_price else (p_prices ->> k.instrument_id)::numeric end;
        if market is null then
          raise exception using errcode = 'PFM02', message = 'margin_check: no market',
            detail = jsonb_build_object('reason', 'no_market')::text;
        end if;
      end if;
      available := round(a.balance + a.credit_line - round(margin, 2) + least(round(pnl, 2), 0), 2);
      if available < 0 then
        raise exception using errcode = 'PFM02', message = 'margin_check: margin call',
          detail = jsonb_build_object('reason', 'call', 'call', -available)::text;
      end if;
      if not (k.rate > 0) then return false; end if;
      need := round(greatest(market + k.basis, 0) * p_lots * k.multiplier * k.rate, 2);
      if need > available then
        raise exception using errcode = 'PFM02', message = 'margin_check: short',
          detail = jsonb_build_object('reason', 'short', 'need', need, 'available', available)::text;
      end if;
      return true;
    end $$`,
  ),
  /** The funds ledger is append-only: a wrong entry is reversed by another (docs/margin.md). */
  sqlFunction(
    'funds_ledger_append_only',
    `() returns trigger language plpgsql as $$
    begin
      raise exception 'funds_ledger is append-only: a wrong entry is reversed by another';
    end $$`,
  ),
  /** Refuses UPDATE and DELETE on the funds ledger. */
  trigger(
    'funds_ledger_no_update',
    'before update or delete on funds_ledger for each row execute function funds_ledger_append_only()',
  ),
  /** The funds ledger as the console reads it: who entered each row and who approved it, by name (issue 42). */
  view(
    'v_funds_ledger',
    `
    select f.id, f.tenant_id, f.pricer_id, f.kind, f.amount, f.balance_after, f.note, f.actor, f.bank_ref, f.checker,
           f.created_at,
           coalesce(nullif(m.full_name, ''), nullif(mt.name, ''), mt.username, f.actor) as maker_name,
           coalesce(nullif(c.full_name, ''), nullif(ct.name, ''), ct.username, f.checker) as checker_name
      from funds_ledger f
      left join staff m on m.tenant_id = f.tenant_id and m.trader_sub = f.actor
      left join staff c on c.tenant_id = f.tenant_id and c.trader_sub = f.checker
      -- The company's owner has a staff row without a name (written for it): its sign-in's name, never its id.
      left join traders mt on mt.id = f.actor
      left join traders ct on ct.id = f.checker`,
  ),
];
