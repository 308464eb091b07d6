import { useEffect, useEffectEvent, useState } from 'react';
import { NumberInput, TextInput } from '@pfp/mantine';

/** 本地草稿 + 防抖提交；外部值变化（例如清除筛选）时同步草稿。 */
export function useDebouncedDraft<V>(value: V, commit: (value: V) => void, delayMs: number): [V, (value: V) => void] {
  const [draft, setDraft] = useState(value);
  const [synced, setSynced] = useState(value);
  if (!Object.is(value, synced)) {
    setSynced(value);
    setDraft(value);
  }
  const fire = useEffectEvent((next: V) => commit(next));
  useEffect(() => {
    if (Object.is(draft, value)) return;
    const id = setTimeout(() => fire(draft), delayMs);
    return () => clearTimeout(id);
  }, [draft, value, delayMs]);
  return [draft, setDraft];
}

export function DebouncedTextInput(props: {
  value: string;
  onCommit: (value: string) => void;
  delayMs: number;
  label: string;
  placeholder: string;
  error?: string | undefined;
  type?: 'text' | 'search';
}) {
  const [draft, setDraft] = useDebouncedDraft(props.value, props.onCommit, props.delayMs);
  return (
    <TextInput
      size="xs"
      type={props.type ?? 'text'}
      aria-label={props.label}
      placeholder={props.placeholder}
      value={draft}
      error={props.error}
      onChange={(event) => setDraft(event.currentTarget.value)}
    />
  );
}

export function DebouncedNumberInput(props: {
  value: number | string;
  onCommit: (value: number | null) => void;
  delayMs: number;
  label: string;
  placeholder: string;
  min?: number | undefined;
  max?: number | undefined;
  error?: string | undefined;
}) {
  const commit = (next: number | string) => {
    if (next === '') props.onCommit(null);
    else if (typeof next === 'number' && Number.isFinite(next)) props.onCommit(next);
  };
  const [draft, setDraft] = useDebouncedDraft<number | string>(props.value, commit, props.delayMs);
  return (
    <NumberInput
      size="xs"
      aria-label={props.label}
      placeholder={props.placeholder}
      value={draft}
      min={props.min}
      max={props.max}
      error={props.error}
      onChange={setDraft}
    />
  );
}
