export * from './theme';
export * from './toast';
export * from './FullScreenMessage';
export * from './StandaloneProviders';
export * from './icons';
export * from './NotFoundPage';
export * from './PriceConfirmation';
export * from './StatementExport';
