import { useQuery } from '@tanstack/react-query';
import { queryKeys, useApi, type TraderProfile } from '../api';

export interface ProfileState {
  /** null: no profile saved yet (my-self answered 404). */
  profile: TraderProfile | null;
  loading: boolean;
  /** Any failure but 404 (SPEC §4 "Profile load"). */
  error: Error | null;
}

export function useProfile(): ProfileState {
  const api = useApi();
  const query = useQuery({ queryKey: queryKeys.profile, queryFn: api.mySelf });
  return { profile: query.data ?? null, loading: query.isPending, error: query.error };
}
