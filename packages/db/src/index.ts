export * from './db';
export * from './migrate';
export * from './seed';
export * from './seed-data';
export * from './seed-dictionary';
