import { z } from 'zod';
import { isCalendarDay } from './fixing';
import { id, nameText, text, timestamp } from './primitives';

/**
 * 点价协议 (issue 43 item 3, docs/agreement.md): the company's agreement, one version at a time;
 * a customer accepts the current one on the desk before fixing, and the trader records the signed
 * paper or e-signature against it.
 */

export const AGREEMENT_TITLE_MAX = 100;
export const AGREEMENT_TEXT_MAX = 50_000;
export const AGREEMENT_REFERENCE_MAX = 100;
export const AGREEMENT_FILE_MAX = 200;

/** The refusal of a fix, 条件单 or structure before the customer accepted the agreement (409). */
export const AGREEMENT_REQUIRED_MESSAGE = '请先签署点价协议';

const json = { error: '请求参数必须是 JSON 对象' };

/** The pricer's view of the agreement: the current version, and what this customer accepted. */
export const agreementView = z.object({
  version: z.int(),
  title: z.string(),
  text: z.string(),
  /** The version a customer must have accepted (or a later one) to fix. */
  required_version: z.int(),
  /** Whether this customer may fix: accepted required_version or later. */
  accepted: z.boolean(),
  /** This customer's latest acceptance (null: none yet). */
  acceptance: z
    .object({ version: z.int(), accepted_at: timestamp, ip: z.string().nullable(), user_agent: z.string().nullable() })
    .nullable(),
});
export type AgreementView = z.input<typeof agreementView>;

export const acceptAgreementInput = z.object({ version: id('请填写协议版本（version）') }, json);
export type AcceptAgreementInput = z.input<typeof acceptAgreementInput>;

/** save-agreement: a new version of the company's agreement. */
export const saveAgreementInput = z.object(
  {
    title: nameText('协议标题', '请填写协议标题（title）')
      .min(1, { error: '请填写协议标题（title）' })
      .max(AGREEMENT_TITLE_MAX, { error: `协议标题（title）不能超过 ${AGREEMENT_TITLE_MAX} 个字符` }),
    text: text('请填写协议正文（text）')
      .trim()
      .min(1, { error: '请填写协议正文（text）' })
      .max(AGREEMENT_TEXT_MAX, { error: `协议正文（text）不能超过 ${AGREEMENT_TEXT_MAX} 个字符` }),
    required: z.boolean({ error: '是否要求全部客户重新签署（required）必须是 true 或 false' }),
  },
  json,
);
export type SaveAgreementInput = z.input<typeof saveAgreementInput>;

export const agreementTemplate = z.object({
  version: z.int(),
  title: z.string(),
  text: z.string(),
  required: z.boolean(),
  created_by: z.string(),
  created_at: timestamp,
});
export type AgreementTemplate = z.input<typeof agreementTemplate>;

/** record-signed-agreement: the signed paper's or e-signature's number, date and file name. */
export const recordSignedAgreementInput = z.object(
  {
    user_id: id('请选择客户（user_id）'),
    version: id('请填写协议版本（version）'),
    reference: nameText('签署编号', '请填写签署编号（reference）')
      .min(1, { error: '请填写签署编号（reference）' })
      .max(AGREEMENT_REFERENCE_MAX, { error: `签署编号（reference）不能超过 ${AGREEMENT_REFERENCE_MAX} 个字符` }),
    signed_on: text('请填写签署日期（signed_on）')
      .trim()
      .refine(isCalendarDay, { error: '签署日期（signed_on）格式应为 YYYY-MM-DD' }),
    file_name: nameText('文件名')
      .max(AGREEMENT_FILE_MAX, { error: `文件名（file_name）不能超过 ${AGREEMENT_FILE_MAX} 个字符` })
      .nullish(),
  },
  json,
);
export type RecordSignedAgreementInput = z.input<typeof recordSignedAgreementInput>;

export const signedAgreement = z.object({
  user_id: z.int(),
  version: z.int(),
  reference: z.string(),
  signed_on: z.string(),
  file_name: z.string().nullable(),
  recorded_by: z.string(),
  recorded_at: timestamp,
});
export type SignedAgreement = z.input<typeof signedAgreement>;

/** The console's page: the versions, newest first, and every customer's standing. */
export const agreementsOverview = z.object({
  templates: z.array(agreementTemplate),
  required_version: z.int(),
  customers: z.array(
    z.object({
      user_id: z.int(),
      username: z.string(),
      full_name: z.string().nullable(),
      /** Accepted required_version or later: may fix. */
      accepted: z.boolean(),
      acceptance: agreementView.shape.acceptance,
      /** The latest signed record (any version). */
      signed: signedAgreement.nullable(),
    }),
  ),
});
export type AgreementsOverview = z.input<typeof agreementsOverview>;
