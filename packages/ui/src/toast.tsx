import { CloseButton } from '@pfp/mantine';
import { useEffect } from 'react';
import toast, { ToastBar, Toaster, useToasterStore, type ToastOptions } from 'react-hot-toast';
import { zh } from '@pfp/i18n';

/** SPEC §9: at most 3 toasts visible; success 2 s, error 3 s, helper default 3 s. */
export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATION = { success: 2000, error: 3000, default: 3000 } as const;

type Kind = 'success' | 'error' | 'warning' | 'info';

/** The global toast helper of the spec (types success, error, warning, info; default info). */
export function notify(message: string, kind: Kind = 'info', duration?: number) {
  const opts: ToastOptions = {
    duration:
      duration ??
      (kind === 'success' ? TOAST_DURATION.success : kind === 'error' ? TOAST_DURATION.error : TOAST_DURATION.default),
  };
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

/**
 * The page's one toaster. `variant="rich"` is the volatility app's: top-right, a close button and
 * rich colours; the default is bottom-right.
 */
export function AppToaster({ variant = 'default' }: { variant?: 'default' | 'rich' }) {
  useVisibleLimit(MAX_VISIBLE_TOASTS);
  const rich = variant === 'rich';
  return (
    <Toaster
      position={rich ? 'top-right' : 'bottom-right'}
      gutter={14}
      toastOptions={{ duration: 4000, style: { maxWidth: 356 } }}
    >
      {(t) => (
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
      )}
    </Toaster>
  );
}
