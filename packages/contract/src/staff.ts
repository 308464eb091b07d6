import { z } from 'zod';
import { STAFF_ROLES } from './paths';
import { id, nameText, text, timestamp } from './primitives';

/**
 * Staff and roles, maker-checker approvals (issue 42, docs/roles.md).
 */

const roles = z
  .array(z.enum(STAFF_ROLES, { error: '角色应为 admin、trader、risk、finance 或 viewer' }), { error: '角色必须是列表' })
  .min(1, { error: '请至少选择一个角色' })
  .max(STAFF_ROLES.length, { error: '角色重复' })
  .refine((r) => new Set(r).size === r.length, { error: '角色重复' });

export const STAFF_STATUSES = ['active', 'disabled'] as const;

export const createStaffInput = z.object(
  {
    username: text('用户名必须是文本')
      .trim()
      .min(1, { error: '请输入用户名' })
      .max(64, { error: '用户名不能超过 64 个字符' })
      .regex(/^[^\s]+$/u, { error: '用户名不能包含空格' }),
    password: text('密码必须是文本')
      .min(8, { error: '密码至少 8 个字符' })
      .max(256, { error: '密码不能超过 256 个字符' }),
    full_name: nameText('姓名', '请输入姓名')
      .min(1, { error: '请输入姓名' })
      .max(50, { error: '姓名不能超过 50 个字符' }),
    roles,
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type CreateStaffInput = z.input<typeof createStaffInput>;

export const updateStaffInput = z
  .object(
    {
      user_id: text('员工编号必须是文本').trim().min(1, { error: '请选择员工' }).max(128),
      roles: roles.optional(),
      status: z.enum(STAFF_STATUSES, { error: '状态应为 active 或 disabled' }).optional(),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .refine((v) => v.roles !== undefined || v.status !== undefined, { error: '请至少修改角色或状态' });
export type UpdateStaffInput = z.input<typeof updateStaffInput>;

export const staffMember = z.object({
  user_id: z.string(),
  username: z.string().nullable(),
  full_name: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  status: z.enum(STAFF_STATUSES),
  created_at: timestamp,
});
export type StaffMember = z.input<typeof staffMember>;
export const staffList = z.object({ items: z.array(staffMember), total_count: z.int() });
export type StaffList = z.input<typeof staffList>;

/** The calls an approval policy may hold for a second person. */
export const APPROVAL_ACTIONS = [
  'record-funds',
  'set-credit-line',
  'settle-lots',
  'unlock-pricer',
  'update-pricer-status',
  'create-contract',
  // issue 42 item 2 (docs/roles.md): the trader's direct 转月 (agreed off the platform) and a fee waiver.
  'roll-contract',
  'settle-fee',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

const threshold = z
  .number({ error: '阈值必须是数字' })
  .finite({ error: '阈值必须是数字' })
  .min(0, { error: '阈值不能为负数' })
  .max(1e12, { error: '阈值超出范围' });

export const approvalThresholds = z.object(
  {
    /** record-funds: an entry of at most this many 元 (absolute) needs no approval. */
    funds_amount: threshold.optional(),
    /** create-contract: a contract of at most this many 手 needs no approval. */
    contract_quantity: threshold.optional(),
  },
  { error: '阈值必须是对象' },
);

export const setApprovalPolicyInput = z.object(
  {
    actions: z
      .array(z.enum(APPROVAL_ACTIONS, { error: '需复核的操作无效' }), { error: '需复核的操作必须是列表' })
      .max(APPROVAL_ACTIONS.length, { error: '需复核的操作重复' })
      .refine((a) => new Set(a).size === a.length, { error: '需复核的操作重复' }),
    thresholds: approvalThresholds.optional(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type SetApprovalPolicyInput = z.input<typeof setApprovalPolicyInput>;

export const approvalPolicy = z.object({
  actions: z.array(z.enum(APPROVAL_ACTIONS)),
  thresholds: z.object({ funds_amount: z.number(), contract_quantity: z.number() }),
  /** Whether a second person with the 风控 role exists: without one, the calls apply at once (docs/roles.md). */
  has_checker: z.boolean(),
});
export type ApprovalPolicy = z.input<typeof approvalPolicy>;

/** A call held by the policy: 202 `{ request_id }`, nothing changed yet. */
export const pendingApproval = z.object({ request_id: z.int(), status: z.literal('pending') });
export type PendingApproval = z.input<typeof pendingApproval>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'failed'] as const;

export const approvalRequest = z.object({
  id: z.int(),
  action: z.enum(APPROVAL_ACTIONS),
  body: z.record(z.string(), z.unknown()),
  /** What it acts on, as the inbox names it (客户 / 合同). */
  subject_label: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  maker: z.string(),
  maker_name: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  checker: z.string().nullable(),
  checker_name: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: timestamp,
  decided_at: timestamp.nullable(),
});
export type ApprovalRequest = z.input<typeof approvalRequest>;

export const approvalRequestsInput = z.object(
  { status: z.enum(APPROVAL_STATUSES, { error: '状态无效' }).optional() },
  { error: '请求参数必须是 JSON 对象' },
);
export const approvalRequests = z.object({
  items: z.array(approvalRequest),
  total_count: z.int(),
  /** Pending requests this caller may decide (the inbox badge). */
  pending_for_me: z.int(),
});
export type ApprovalRequests = z.input<typeof approvalRequests>;

export const approveRequestInput = z.object(
  { request_id: id('请选择复核申请') },
  { error: '请求参数必须是 JSON 对象' },
);
export const rejectRequestInput = z.object(
  {
    request_id: id('请选择复核申请'),
    reason: text('驳回理由必须是文本')
      .trim()
      .min(1, { error: '请填写驳回理由' })
      .max(200, { error: '驳回理由不能超过 200 个字符' }),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export const approvalDecision = z.object({
  request_id: z.int(),
  status: z.enum(APPROVAL_STATUSES),
  /** The applied call's answer (approve). */
  result: z.unknown().optional(),
});
export type ApprovalDecision = z.input<typeof approvalDecision>;
