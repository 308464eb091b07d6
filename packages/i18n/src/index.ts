export * from './strings';
export * from './exchanges';
export * from './products';
export * from './brokers';
export * from './format';
export * from './fixing';
export * from './audit';
export * from './userAgent';
