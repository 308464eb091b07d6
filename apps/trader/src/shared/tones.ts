/**
 * Colours for text on white that meet WCAG AA (≥ 4.5:1). Mantine's defaults for blue filled
 * buttons (#228be6), dimmed text (#868e96) and orange/yellow labels fall short of it.
 */
export const TONE = {
  primary: '#1971c2',
  success: '#087f5b',
  warning: '#a63c0c',
  pending: '#8f5600',
  info: '#1864ab',
  danger: '#c92a2a',
  muted: '#495057',
} as const;
