import { MantineProvider } from '@pfp/mantine';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';

export { installDomPolyfills } from '@pfp/ui/testing';

/** Renders inside Mantine with a toaster, like the host does. */
export function renderUi(ui: ReactElement): RenderResult {
  return render(
    <MantineProvider>
      <Toaster />
      {ui}
    </MantineProvider>,
  );
}
