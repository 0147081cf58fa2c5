// @fixdesk/domain: the desk's rules in one place, pure TypeScript without I/O.
export * from './codes';
export * from './decimal';
export * from './order-state';
export * from './fill-validation';
export * from './order-intake';
export * from './risk';
export * from './maturities';
export * from './strategies';
export * from './contract-specs';
export * from './format';
export * from './client-defaults';
export * from './fix-order-builder';
export * from './errors';
export * from './tick-size';
export * from './service-health';
export * from './axes';
export * from './fix-specification';
