import type { CreateStaffInput, PendingApproval, SetApprovalPolicyInput, UpdateStaffInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** The approvals inbox is polled like the other pages (its badge in the sidebar). */
export const APPROVALS_REFRESH_MS = 10_000;

export const staffKeys = traderKeys('staff');
export const approvalKeys = traderKeys('approvals');

/** A call the approval policy held for a second person (202): nothing changed yet (docs/roles.md). */
export const isPendingApproval = (data: unknown): data is PendingApproval =>
  typeof data === 'object' &&
  data !== null &&
  (data as { status?: unknown }).status === 'pending' &&
  'request_id' in data;

/** Staff and roles, and maker-checker approvals (issue 42, docs/roles.md). */
export function staffApi({ call }: TraderTransport) {
  return {
    staff: () => call('staff', undefined),
    createStaff: (input: CreateStaffInput) => call('createStaff', input),
    updateStaff: (input: UpdateStaffInput) => call('updateStaff', input),
    policy: () => call('approvalPolicy', undefined),
    setPolicy: (input: SetApprovalPolicyInput) => call('setApprovalPolicy', input),
    requests: (status?: 'pending') => call('approvalRequests', status ? { status } : {}),
    approve: (requestId: number) => call('approveRequest', { request_id: requestId }),
    reject: (requestId: number, reason: string) => call('rejectRequest', { request_id: requestId, reason }),
  };
}

export function useStaff() {
  const api = useCalls(staffApi);
  return useQuery({ queryKey: staffKeys.of('list'), queryFn: api.staff });
}

export function useApprovalPolicy() {
  const api = useCalls(staffApi);
  return useQuery({ queryKey: staffKeys.of('policy'), queryFn: api.policy });
}

/** Every staff change: the list and the policy's 'has a second 风控' are read again. */
function useStaffMutation<I>(run: (api: ReturnType<typeof staffApi>, input: I) => Promise<unknown>) {
  const api = useCalls(staffApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(api, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}
export const useCreateStaff = () => useStaffMutation((api, input: CreateStaffInput) => api.createStaff(input));
export const useUpdateStaff = () => useStaffMutation((api, input: UpdateStaffInput) => api.updateStaff(input));
export const useSetApprovalPolicy = () =>
  useStaffMutation((api, input: SetApprovalPolicyInput) => api.setPolicy(input));

/** The company's requests (newest first) and how many this person may decide (the badge). */
export function useApprovalRequests(enabled = true) {
  const api = useCalls(staffApi);
  return useQuery({
    queryKey: approvalKeys.of('list'),
    queryFn: () => api.requests(),
    refetchInterval: APPROVALS_REFRESH_MS,
    enabled,
  });
}

/** A decision changes what it applied: every read of the console is refreshed. */
export function useDecideRequest() {
  const api = useCalls(staffApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { id: number; approve: true } | { id: number; approve: false; reason: string }) =>
      d.approve ? api.approve(d.id) : api.reject(d.id, d.reason),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['trader'] }),
  });
}
