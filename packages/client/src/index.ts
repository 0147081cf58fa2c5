// @fixdesk/client: a framework-free client of the FixDesk server, for the web app and for scripts
// (scripts/broker-sim.ts): the HTTP API client, the one WebSocket client, the simulator API and the
// Broker Simulator's logic, and the CSV files of the audit exports (written by the server, shared with the screens). No React, no DOM beyond fetch and a WebSocket-like socket handed in.
export * from './api-client';
export * from './live-client';
export * from './simulator-api';
export * from './reference-load';
export * from './broker-simulator';
export * from './csv';
export * from './audit-csv';
