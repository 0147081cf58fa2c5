import type { Order } from '@fixdesk/protocol';

export interface SnapshotRequest {
  url: string;
  token: string | null;
  chunkSize: number;
}

export type SnapshotWorkerMessage =
  | { type: 'chunk'; orders: Order[]; total: number }
  | { type: 'done'; total: number }
  /** status 0: no HTTP answer (network). */
  | { type: 'failed'; status: number; body: string };
