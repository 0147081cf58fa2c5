export * from './db';
export * from './migrate';
export * from './seed';
export * from './seed-data';
export * from './seed-dictionary';
export * from './repos/users';
export * from './repos/auth-sessions';
