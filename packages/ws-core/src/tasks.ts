import { MSG_MISSING_TASK_ID } from './errors';
import type { Requests } from './requests';

/** start_task {task_name, params} → its task_id (SPEC §7). */
export async function startTask(
  requests: Requests,
  taskName: string,
  params: Record<string, unknown> = {},
): Promise<string> {
  const data = await requests.request<unknown>('start_task', { task_name: taskName, params });
  if (typeof data !== 'object' || data === null || typeof (data as { task_id?: unknown }).task_id !== 'string') {
    throw new Error(MSG_MISSING_TASK_ID);
  }
  return (data as { task_id: string }).task_id;
}

/** intervene_task with {task_id, intervention, params?} under `params` (SPEC §7). */
export function interveneTask<T = unknown>(
  requests: Requests,
  taskId: string,
  intervention: string,
  params?: Record<string, unknown>,
): Promise<T> {
  const inner: Record<string, unknown> = { task_id: taskId, intervention };
  if (params !== undefined) inner.params = params;
  return requests.request<T>('intervene_task', { params: inner });
}
