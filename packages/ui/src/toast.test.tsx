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

test('a dismissed toast says it is leaving at once, while it still fades out', () => {
  render(<AppToaster />);
  let id = '';
  act(() => {
    id = notify('已保存', 'success');
  });
  const wrapper = () => screen.getByText('已保存').closest('[data-toast]');
  expect(wrapper()?.getAttribute('data-toast')).toBe('shown');
  act(() => toast.dismiss(id));
  // Still in the document while it fades …
  expect(wrapper()?.textContent).toContain('已保存');
  // … marked as leaving.
  expect(wrapper()?.getAttribute('data-toast')).toBe('leaving');
});
