import { liveNodes, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Notices the desk's nodes that stopped being live (their node lease ran out: killed, cut off, or
 * stopped) by reading the node leases once per TTL, so that what they served leaves this node's
 * screens at once: their browsers from the users online, their clients' sessions from the connected
 * ones (docs/adr/0012). A clean stop says so itself; this is for the nodes that could not. This node
 * is never gone to itself: its own lease lapses only when its renewal came late (a busy or paused
 * process), and it is still serving its browsers and clients.
 */
export class NodeWatch {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private live: Set<string> | undefined;

  constructor(
    private readonly db: Db,
    /** This node's id. */
    private readonly selfId: string,
    private readonly ttlMs: number,
    private readonly onGone: (nodeIds: string[]) => void | Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.checking ??= this.check()
        .catch((err: unknown) => this.log.warn({ err }, 'could not read which nodes are live'))
        .finally(() => {
          this.checking = undefined;
        });
    }, this.ttlMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
  }

  /** One look: calls onGone with the nodes live at the last look and not now. */
  async check(): Promise<void> {
    const now = new Set((await liveNodes(this.db, 0)).map((n) => n.nodeId));
    const gone = this.live ? [...this.live].filter((n) => !now.has(n) && n !== this.selfId) : [];
    this.live = now;
    if (gone.length === 0) return;
    this.log.warn({ nodes: gone }, 'nodes no longer live: their browsers and client sessions are gone');
    await this.onGone(gone);
  }
}
