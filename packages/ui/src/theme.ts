import { createTheme } from '@pfp/mantine';

export type ColorScheme = 'light' | 'dark';

/** SPEC §1: the theme comes from the `theme` query parameter, default light. */
export function themeFromSearch(search: string): ColorScheme {
  return new URLSearchParams(search).get('theme') === 'dark' ? 'dark' : 'light';
}

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
});
