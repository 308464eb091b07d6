import '@mantine/core/styles.css';
import '@pfp/mantine/dates.css';
import { createRoot } from 'react-dom/client';
import { Root } from './Root';

createRoot(document.getElementById('root')!).render(<Root />);
