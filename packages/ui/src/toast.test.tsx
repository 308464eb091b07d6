// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { installDomPolyfills } from './testing';
import { AppToaster, notify } from './toast';

beforeAll(() => installDomPolyfills());

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

test('a dismissed toast leaves the accessibility tree at once, not when its fade-out ends', () => {
  render(<AppToaster />);
  let id = '';
  act(() => {
    id = notify('已保存', 'success');
  });
  expect(screen.getByRole('status')).toHaveProperty('textContent', '已保存');
  act(() => toast.dismiss(id));
  // Still in the document while it fades …
  expect(screen.getByText('已保存')).toBeTruthy();
  // … but no longer a status anyone reads or counts.
  expect(screen.queryByRole('status')).toBeNull();
});
