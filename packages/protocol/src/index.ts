export * from './auth';
export * from './errors';
export * from './health';
export * from './ws';
export * from './connectors';
export * from './users';
export * from './orders';
export * from './test-client';
