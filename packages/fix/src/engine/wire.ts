import type { Frame } from '../codec/framer';
import type { InboundMessage, SessionCodec } from '../session/message';
import type { Session } from '../session/session';
import { messageTrace, traceNow } from '../trace';
import type { FixConnection } from '../transport/connection';

/** What one frame from the socket became. */
export type Decoded =
  { readonly kind: 'message'; readonly message: InboundMessage } | { readonly kind: 'garbled'; readonly reason: string };

/** Decodes one frame; a wrong BeginString still decodes so the session can answer it with a Logout. */
export function decodeFrame(frame: Frame, codec: SessionCodec): Decoded {
  if (frame.kind === 'garbled') return { kind: 'garbled', reason: frame.reason };
  const message = codec.decode(frame.bytes);
  if (message.garbled !== undefined) return { kind: 'garbled', reason: message.garbled };
  return { kind: 'message', message };
}

const BACKLOG_HIGH = 1000;

/**
 * Hands decoded frames to a session in arrival order. Reading pauses while the session has a backlog,
 * so a fast sender is slowed down by TCP instead of filling our memory.
 */
export class SessionFeed {
  private backlog = 0;

  constructor(
    private readonly connection: FixConnection,
    private readonly session: Session,
  ) {}

  deliver(d: Decoded): void {
    const sink = messageTrace.sink;
    if (sink && d.kind === 'message') {
      const clOrdId = d.message.get(11);
      if (clOrdId !== undefined) {
        sink('in.data', clOrdId, this.connection.lastDataAtNs);
        sink('in.decoded', clOrdId, traceNow());
      }
    }
    this.backlog += 1;
    if (this.backlog === BACKLOG_HIGH) this.connection.pause();
    const done =
      d.kind === 'message' ? this.session.receive(this.connection, d.message) : this.session.receiveGarbled(this.connection, d.reason);
    done.then(this.delivered, this.delivered);
  }

  private readonly delivered = (): void => {
    this.backlog -= 1;
    if (this.backlog === BACKLOG_HIGH / 2) this.connection.resume();
  };

  closed(reason: string): void {
    void this.session.connectionClosed(this.connection, reason).catch(() => {});
  }
}
