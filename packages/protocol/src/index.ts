// First: how zod builds the schemas below (no eval in browsers).
import './schema-config';
export * from './auth';
export * from './errors';
export * from './health';
export * from './ws';
export * from './connectors';
export * from './users';
export * from './orders';
export * from './test-client';
export * from './client-defaults';
export * from './audit';
export * from './admin-fields';
export * from './security-master';
export * from './fix-message-specs';
export * from './client-defaults-screen';
export * from './client-capabilities';
export * from './client-sessions';
