import { createTheme, PasswordInput, type CSSVariablesResolver } from '@pfp/mantine';
import { zh } from '@pfp/i18n';

export type ColorScheme = 'light' | 'dark';

/** SPEC §1: the theme comes from the `theme` query parameter, default light. */
export function themeFromSearch(search: string): ColorScheme {
  return themeParam(search) ?? 'light';
}

/** The theme the address asks for: null when it names none (the page keeps the one it has). */
export function themeParam(search: string): ColorScheme | null {
  const value = new URLSearchParams(search).get('theme');
  return value === null ? null : value === 'dark' ? 'dark' : 'light';
}

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  components: {
    // Mantine's own label is English ('Toggle password visibility'); no English reaches a user.
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': zh.shell.togglePassword } },
    }),
  },
});

/**
 * Mantine's light-scheme defaults for muted text (gray.6), filled buttons (blue.6) and coloured
 * text (shade 6) are under WCAG AA's 4.5:1 on white. Every app (the customer desk is read outdoors
 * on phones) gets darker shades instead, ≥ 4.5:1 on white and on striped rows. The dark scheme
 * keeps Mantine's values, which pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  dark: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Links (the trader's breadcrumb): blue.6 is 3.6:1 on white.
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-primary-color-filled': 'var(--mantine-color-blue-8)',
    '--mantine-primary-color-filled-hover': 'var(--mantine-color-blue-9)',
    '--mantine-color-blue-filled': 'var(--mantine-color-blue-8)',
    '--mantine-color-blue-filled-hover': 'var(--mantine-color-blue-9)',
    '--mantine-primary-color-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-blue-text': 'var(--mantine-color-blue-9)',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-red-text': 'var(--mantine-color-red-9)',
    '--mantine-color-teal-text': 'var(--mantine-color-teal-9)',
    '--mantine-color-green-light-color': '#237a36',
    '--mantine-color-green-text': '#237a36',
    '--mantine-color-orange-light-color': '#b3400b',
    '--mantine-color-orange-text': '#b3400b',
  },
});
