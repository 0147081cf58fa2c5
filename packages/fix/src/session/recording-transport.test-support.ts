// Test support for the session unit tests: a transport that records what would have gone on the wire.
import { FixFramer } from '../codec/framer';
import type { SessionTransport } from './session';

const SOH = '\x01';

export class RecordingTransport implements SessionTransport {
  readonly remoteAddress = '127.0.0.1';
  readonly sent: string[] = [];
  ended: string | undefined;
  async write(bytes: Buffer): Promise<void> {
    for (const f of new FixFramer().push(bytes)) this.sent.push(f.bytes.toString('latin1').replaceAll(SOH, '|'));
  }
  end(reason: string): void {
    this.ended = reason;
  }
  /** The MsgType of each sent message. */
  types(): string[] {
    return this.sent.map((m) => /\|35=([^|]+)/.exec(m)![1]!);
  }
  take(): string[] {
    return this.sent.splice(0);
  }
}
