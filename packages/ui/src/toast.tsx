import { CloseButton } from '@pfp/mantine';
import { useEffect, useRef } from 'react';
import toast, { ToastBar, Toaster, useToaster, useToasterStore, type ToastOptions } from 'react-hot-toast';
import { zh } from '@pfp/i18n';
import { SwipeToDismiss } from './SwipeToDismiss';

/** SPEC §9: at most 3 toasts visible; success 2 s, error 3 s, helper default 3 s. */
export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATION = { success: 2000, error: 3000, default: 3000 } as const;

type Kind = 'success' | 'error' | 'warning' | 'info';

/** The global toast helper of the spec (types success, error, warning, info; default info). */
export function notify(message: string, kind: Kind = 'info', duration?: number, slot?: string) {
  const opts: ToastOptions = {
    duration:
      duration ??
      (kind === 'success' ? TOAST_DURATION.success : kind === 'error' ? TOAST_DURATION.error : TOAST_DURATION.default),
    // One toast per slot: a new answer (the next login attempt's) replaces the old one in place (issue 29).
    ...(slot ? { id: slot } : {}),
  };
  // A slot's toast of another kind is replaced too: react-hot-toast keeps the id, updates type and text.
  if (kind === 'success') return toast.success(message, opts);
  if (kind === 'error') return toast.error(message, opts);
  if (kind === 'warning') return toast(message, { ...opts, icon: '⚠️' });
  return toast(message, { ...opts, icon: 'ℹ️' });
}

function useVisibleLimit(limit: number) {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(limit)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts, limit]);
}

const RICH = {
  success: { background: '#ecfdf3', color: '#008a2e', border: '1px solid #bffcd9' },
  error: { background: '#fff0f0', color: '#e60000', border: '1px solid #ffe0e1' },
  loading: { background: '#f0f8ff', color: '#0973dc', border: '1px solid #d3e0fd' },
  blank: {},
  custom: {},
} as const;

/** SPEC §9: Alt+T moves the focus to the toasts (the keyboard's way to reach them). */
export const isToasterHotkey = (event: Pick<KeyboardEvent, 'altKey' | 'code'>) => event.altKey && event.code === 'KeyT';

/**
 * The page's one toaster. `variant="rich"` is the volatility app's: top-right, a close button and
 * rich colours; the default is bottom-right. Toasts can be swiped away; Alt+T focuses their region
 * ('通知 Alt+T'), and they pause while it has the focus, as they do under the pointer.
 */
export function AppToaster({ variant = 'default' }: { variant?: 'default' | 'rich' }) {
  useVisibleLimit(MAX_VISIBLE_TOASTS);
  const { handlers } = useToaster();
  const region = useRef<HTMLElement>(null);
  const rich = variant === 'rich';

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isToasterHotkey(event)) return;
      event.preventDefault();
      region.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section
      ref={region}
      aria-label={zh.shell.notifications}
      tabIndex={-1}
      onFocus={handlers.startPause}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) handlers.endPause();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') (document.activeElement as HTMLElement | null)?.blur();
      }}
      style={{ outline: 'none' }}
    >
      <Toaster
        position={rich ? 'top-right' : 'bottom-right'}
        gutter={14}
        toastOptions={{ duration: 4000, style: { maxWidth: 356 } }}
      >
        {(t) => (
          <SwipeToDismiss id={t.id} onDismiss={() => toast.dismiss(t.id)} leaving={!t.visible}>
            <ToastBar toast={t} style={rich ? { ...t.style, ...RICH[t.type] } : t.style}>
              {({ icon, message }) => (
                <>
                  {icon}
                  {message}
                  {rich && t.type !== 'loading' && (
                    <CloseButton size="sm" aria-label={zh.shell.close} onClick={() => toast.dismiss(t.id)} />
                  )}
                </>
              )}
            </ToastBar>
          </SwipeToDismiss>
        )}
      </Toaster>
    </section>
  );
}
