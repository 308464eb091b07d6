import { MantineProvider } from '@pfp/mantine';
import { theme } from '@pfp/ui';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

export { installDomPolyfills } from '@pfp/ui/testing';

export const renderUi = (ui: ReactNode) => render(<MantineProvider theme={theme}>{ui}</MantineProvider>);
