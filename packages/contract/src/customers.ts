import { z } from 'zod';
import { id, text } from './primitives';
import { createPricerInput, phoneSchema } from './trader';
import { marginRate } from './margin';

/**
 * The customer's legal identity and desk settings (issue 29, docs/fixing.md): 客户全称 (what a
 * confirmation and a statement print), 联系人, 手机号, and whether the desk asks for confirmation
 * before every fix (default on; the trader may switch it off for an experienced customer).
 */

export const FULL_NAME_MAX = 100;
export const CONTACT_NAME_MAX = 50;

/** 客户全称: blank means none (prints fall back to the username). */
export const fullNameSchema = text('客户全称必须是文本')
  .trim()
  .max(FULL_NAME_MAX, { error: `客户全称不能超过 ${FULL_NAME_MAX} 个字符` });

/** 联系人: blank means none. */
export const contactNameSchema = text('联系人必须是文本')
  .trim()
  .max(CONTACT_NAME_MAX, { error: `联系人不能超过 ${CONTACT_NAME_MAX} 个字符` });

/** create-pricer-user with the identity (every new field optional: SPEC's request stays valid). */
export const createCustomerInput = createPricerInput.extend({
  full_name: fullNameSchema.nullish(),
  contact_name: contactNameSchema.nullish(),
  /** The customer's own margin rate over the company's (issue 41); absent or null: the company's. */
  margin_rate: marginRate.nullish(),
});
export type CreateCustomerInput = z.input<typeof createCustomerInput>;

/** update-pricer-profile: the fields given change, the others stay; at least one. */
export const updatePricerProfileInput = z
  .object(
    {
      user_id: id(),
      full_name: fullNameSchema.nullish(),
      contact_name: contactNameSchema.nullish(),
      phone: phoneSchema.nullish(),
      confirm_before_fix: z.boolean({ error: '点价前确认必须是 true 或 false' }).optional(),
      /** null: back to the company's rate (issue 41). */
      margin_rate: marginRate.nullish(),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .refine(
    (v) =>
      v.full_name !== undefined ||
      v.contact_name !== undefined ||
      v.phone !== undefined ||
      v.confirm_before_fix !== undefined ||
      v.margin_rate !== undefined,
    { error: '请至少修改一项客户资料' },
  );
export type UpdatePricerProfileInput = z.input<typeof updatePricerProfileInput>;

export const pricerProfile = z.object({
  user_id: z.int(),
  full_name: z.string().nullable(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  confirm_before_fix: z.boolean(),
  margin_rate: z.number().nullable().default(null),
});
export type PricerProfile = z.infer<typeof pricerProfile>;
