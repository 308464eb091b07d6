import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ContractStatus, DB } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { idSchema } from '../http/validate';
import { audit } from './audit';

const STATUSES = ['active', 'paused', 'expired', 'completed'] as const;
const statusSchema = z.enum(STATUSES, { message: '合同状态无效' });

export const createContractSchema = z.object({
  name: z.string().trim().max(100, { message: '合同名称不能超过 100 个字符' }).optional().default(''),
  pricer_id: z.coerce
    .number({ message: '请选择客户' })
    .int({ message: '请选择客户' })
    .positive({ message: '请选择客户' }),
  product_name: z.string({ message: '请选择品种' }).trim().min(1, { message: '请选择品种' }),
  instrument_id: z.string({ message: '请选择期货合约' }).trim().min(1, { message: '请选择期货合约' }),
  direction: z.enum(['BUY', 'SELL'], { message: '请选择期货方向' }),
  total_quantity: z
    .number({ message: '总数量必须大于0' })
    .int({ message: '总数量必须是整数' })
    .positive({ message: '总数量必须大于0' })
    .max(1_000_000, { message: '总数量不能超过 1,000,000 手' }),
  status: statusSchema.optional().default('active'),
});

export const updateStatusSchema = z.object({
  contract_id: idSchema('contract_id'),
  new_status: statusSchema,
});

export async function createContract(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.infer<typeof createContractSchema>,
) {
  return db.transaction().execute(async (tx) => {
    const pricer = await tx
      .selectFrom('pricer_users')
      .select(['id', 'username'])
      .where('id', '=', input.pricer_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!pricer) throw notFound('客户不存在');
    const instrument = await tx
      .selectFrom('instruments')
      .select(['symbol', 'name', 'product_name', 'expired'])
      .where('symbol', '=', input.instrument_id)
      .executeTakeFirst();
    if (!instrument || instrument.expired) throw badRequest('期货合约不存在或已到期', 'instrument_id');
    if (instrument.product_name !== input.product_name) throw badRequest('期货合约与品种不符', 'instrument_id');
    const name = input.name || `${instrument.name}-${pricer.username}`;
    const row = await tx
      .insertInto('contracts')
      .values({
        tenant_id: tenantId,
        name,
        pricer_id: pricer.id,
        product_name: input.product_name,
        instrument_id: instrument.symbol,
        direction: input.direction,
        total_quantity: input.total_quantity,
        remaining_quantity: input.total_quantity,
        status: input.status === 'completed' ? 'active' : input.status,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, { tenantId, actor, action: 'create-contract', payload: { ...input, id: row.id } });
    return row;
  });
}

export async function updateContractStatus(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.infer<typeof updateStatusSchema>,
) {
  return db.transaction().execute(async (tx) => {
    const c = await tx
      .selectFrom('contracts')
      .select(['id', 'status', 'remaining_quantity', 'frozen_quantity'])
      .where('id', '=', input.contract_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!c) throw notFound('合同不存在');
    const to: ContractStatus = input.new_status;
    if (to === 'active' && c.remaining_quantity === 0 && c.frozen_quantity === 0) {
      throw conflict('合同已全部执行，不能重新激活', 'CONTRACT_FULLY_EXECUTED');
    }
    const row = await tx
      .updateTable('contracts')
      .set({ status: to, updated_at: new Date() })
      .where('id', '=', c.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, { tenantId, actor, action: 'update-contract-status', payload: { ...input, from: c.status } });
    return row;
  });
}
