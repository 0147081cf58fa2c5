import { Dictionary } from '../dictionary/dictionary';
import { MsgType, Tag } from '@fixdesk/fix-codes';
import { Acceptor } from '../engine/acceptor';
import { BusinessRejectError, type Application } from '../session/application';
import type { Authenticator } from '../session/authenticator';
import type { Clock, Timers } from '../session/clock';
import { createSessionCodec } from '../session/codec-adapter';
import type { LogFactory } from '../session/log';
import { outgoing, type InboundMessage, type OutgoingMessage } from '../session/message';
import { sessionIdToString, type SessionID } from '../session/session-id';
import type { SessionSettings } from '../session/session-settings';
import type { MessageStoreFactory } from '../store/message-store';
import { MemoryStoreFactory } from '../store/memory-store';

/**
 * The acceptor the public FIX session test cases expect (the QuickFIX acceptance-test setup): we are
 * ISLD, clients are TW or TW44 on FIX.4.4, reset on logon, always in session, full dictionary
 * validation, SendingTime within 120 s. NewOrderSingle, SecurityDefinition and Email are echoed back
 * under a new header; any other application message gets a BusinessMessageReject.
 */
export const CONFORMANCE_COMP_ID = 'ISLD';
export const CONFORMANCE_CLIENTS: readonly string[] = ['TW', 'TW44'];
const ECHOED_TYPES = new Set<string>([MsgType.NewOrderSingle, MsgType.SecurityDefinition, MsgType.Email]);

export interface ConformanceAcceptorOptions {
  readonly port: number;
  readonly host?: string;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly storeFactory?: MessageStoreFactory;
  readonly logFactory?: LogFactory;
  /** Overrides of the conformance settings (tests of limits). */
  readonly settings?: Partial<SessionSettings>;
  /** Observes every application message handed to the echo application (tests). */
  readonly onFromApp?: (message: InboundMessage, sessionID: SessionID) => void;
}

export const conformanceAuthenticator: Authenticator = {
  authenticate({ sessionID }) {
    if (sessionID.beginString !== 'FIX.4.4') return { accept: false, reason: 'Incorrect BeginString' };
    if (sessionID.senderCompID !== CONFORMANCE_COMP_ID || !CONFORMANCE_CLIENTS.includes(sessionID.targetCompID)) {
      return { accept: false, reason: `Unknown session: SenderCompID ${sessionID.targetCompID} / TargetCompID ${sessionID.senderCompID}` };
    }
    return { accept: true };
  },
};

/** The echo application: a copy of the message under our header, PossDupFlag/OrigSendingTime dropped, PossResend kept. */
export class EchoApplication implements Application {
  private readonly seenClOrdIDs = new Map<string, Set<string>>();
  private readonly dictionary = Dictionary.fix44();
  send: ((id: SessionID, message: OutgoingMessage) => Promise<number>) | undefined;

  constructor(private readonly observe?: (message: InboundMessage, sessionID: SessionID) => void) {}

  onLogon(sessionID: SessionID): void {
    this.seenClOrdIDs.set(sessionIdToString(sessionID), new Set());
  }

  async fromApp(message: InboundMessage, sessionID: SessionID): Promise<void> {
    this.observe?.(message, sessionID);
    if (!ECHOED_TYPES.has(message.msgType)) throw new BusinessRejectError('3', 'Unsupported Message Type');
    const key = sessionIdToString(sessionID);
    const seen = this.seenClOrdIDs.get(key) ?? new Set<string>();
    this.seenClOrdIDs.set(key, seen);
    const clOrdID = message.get(Tag.ClOrdID);
    const possResend = message.get(Tag.PossResend) === 'Y';
    if (clOrdID !== undefined) {
      // A possible resend of an order we already echoed is not echoed twice.
      if (possResend && seen.has(clOrdID)) return;
      seen.add(clOrdID);
    }
    const header: Array<[number, string]> = [];
    if (message.get(Tag.PossResend) !== undefined) header.push([Tag.PossResend, message.get(Tag.PossResend)!]);
    const body = message.allFields().filter(([tag]) => !this.dictionary.isHeaderTag(tag) && !this.dictionary.isTrailerTag(tag));
    await this.send?.(sessionID, outgoing(message.msgType, body, header));
  }
}

export async function startConformanceAcceptor(options: ConformanceAcceptorOptions): Promise<Acceptor> {
  const app = new EchoApplication(options.onFromApp);
  const acceptor = await Acceptor.start({
    port: options.port,
    host: options.host,
    authenticator: conformanceAuthenticator,
    app,
    storeFactory: options.storeFactory ?? new MemoryStoreFactory(),
    codec: createSessionCodec(),
    logFactory: options.logFactory,
    clock: options.clock,
    timers: options.timers,
    defaultSettings: { resetOnLogon: true, validate: true, checkLatency: true, maxLatencySec: 120, heartBtIntSec: 30, ...options.settings },
  });
  app.send = (id, message) => acceptor.send(id, message);
  return acceptor;
}
