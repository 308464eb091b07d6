import { z } from 'zod';
import { id, nameText, timestamp } from './primitives';
import { createPricerInput, phoneSchema, resetPricerPasswordInput } from './trader';

/**
 * 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): who may fix for a customer company, each
 * with their own login under the customer. Only the last 4 characters of an ID are kept.
 */

export const PERSON_NAME_MAX = 50;

/** 证件类型: the wire's codes (the console shows them in Chinese: packages/i18n). */
export const ID_TYPES = ['id_card', 'passport', 'hk_macau_permit', 'taiwan_permit', 'other'] as const;
export type IdType = (typeof ID_TYPES)[number];

/** The refusal of a fix, 条件单 or structure by a login that is not an active authorised person (409). */
export const notAuthorisedMessage = (username: string) => `登录账号 ${username} 不是本公司的授权点价人，不能点价`;

const json = { error: '请求参数必须是 JSON 对象' };

const personName = nameText('姓名', '请填写姓名（name）')
  .min(1, { error: '请填写姓名（name）' })
  .max(PERSON_NAME_MAX, { error: `姓名（name）不能超过 ${PERSON_NAME_MAX} 个字符` });
const idType = z.enum(ID_TYPES, { error: '证件类型（id_type）无效' });
/** Exactly the last 4: a longer number is refused, never cut and kept. */
const idLast4 = z
  .string({ error: '请填写证件号后 4 位（id_last4）' })
  .trim()
  .regex(/^[0-9A-Za-z]{4}$/, { error: '证件号后 4 位（id_last4）必须是 4 位数字或字母，不要填写完整证件号' });
const personPhone = phoneSchema.refine((v) => v !== '', { error: '请填写手机号（phone）' });

export const addAuthorisedPricerInput = z.object(
  {
    user_id: id('请选择客户（user_id）'),
    name: personName,
    id_type: idType,
    id_last4: idLast4,
    phone: personPhone,
    username: createPricerInput.shape.username,
    password: createPricerInput.shape.password,
  },
  json,
);
export type AddAuthorisedPricerInput = z.input<typeof addAuthorisedPricerInput>;

/** update-authorised-pricer: the fields given change, the others stay; at least one. */
export const updateAuthorisedPricerInput = z
  .object(
    {
      person_id: id('请选择授权点价人（person_id）'),
      name: personName.optional(),
      id_type: idType.optional(),
      id_last4: idLast4.optional(),
      phone: personPhone.optional(),
    },
    json,
  )
  .refine((v) => v.name !== undefined || v.id_type !== undefined || v.id_last4 !== undefined || v.phone !== undefined, {
    error: '请至少修改一项授权点价人资料',
  });
export type UpdateAuthorisedPricerInput = z.input<typeof updateAuthorisedPricerInput>;

/** set-authorised-pricer-active: 停用 (false) or 恢复 (true) one person. */
export const setAuthorisedPricerActiveInput = z.object(
  {
    person_id: id('请选择授权点价人（person_id）'),
    active: z.boolean({ error: '是否授权（active）必须是 true 或 false' }),
  },
  json,
);
export type SetAuthorisedPricerActiveInput = z.input<typeof setAuthorisedPricerActiveInput>;

/**
 * reset-authorised-pricer-password: the person's new password, by the customer's rule (reset-pricer-password).
 * The customer's first login has none of its own: the customer's password is reset.
 */
export const resetAuthorisedPricerPasswordInput = z.object(
  {
    person_id: id('请选择授权点价人（person_id）'),
    new_password: resetPricerPasswordInput.shape.new_password,
  },
  json,
);
export type ResetAuthorisedPricerPasswordInput = z.input<typeof resetAuthorisedPricerPasswordInput>;
export const resetAuthorisedPricerPasswordResult = z.object({ person_id: z.int(), user_id: z.int() });

export const authorisedPricersInput = z.object({ user_id: id('请选择客户（user_id）') }, json);
export type AuthorisedPricersInput = z.input<typeof authorisedPricersInput>;

export const authorisedPricer = z.object({
  id: z.int(),
  user_id: z.int(),
  name: z.string(),
  id_type: z.enum(ID_TYPES).nullable(),
  id_last4: z.string().nullable(),
  phone: z.string().nullable(),
  username: z.string(),
  active: z.boolean(),
  /** The customer's first login (its password is the customer's: reset-pricer-password). */
  primary: z.boolean(),
  created_at: timestamp,
  deactivated_at: timestamp.nullable(),
  /** Their 条件单 still waiting: a deactivation keeps them (docs/authorised-pricers.md). */
  live_conditionals: z.int(),
});
export type AuthorisedPricer = z.input<typeof authorisedPricer>;

export const authorisedPricers = z.object({ user_id: z.int(), persons: z.array(authorisedPricer) });
export type AuthorisedPricers = z.input<typeof authorisedPricers>;
