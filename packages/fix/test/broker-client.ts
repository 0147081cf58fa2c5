// Test support shared by the engine's socket tests (test/engine.test.ts) and the crash tests on the
// PostgreSQL store (tests/integration/fix-session-crash.test.ts): a broker acceptor that acknowledges
// each order with an ExecutionReport, a client initiator that records the reports it gets, both on a
// manual clock.
import { Tag } from '@fixdesk/fix-codes';
import { Acceptor } from '../src/engine/acceptor';
import { Initiator } from '../src/engine/initiator';
import type { Application } from '../src/session/application';
import { CounterpartyAuthenticator } from '../src/session/authenticator';
import type { ManualClock } from '../src/session/clock';
import { createSessionCodec } from '../src/session/codec-adapter';
import type { LogFactory } from '../src/session/log';
import { outgoing, type InboundMessage } from '../src/session/message';
import type { SessionID } from '../src/session/session-id';
import type { MessageStoreFactory } from '../src/store/message-store';

export const BROKER: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT1' };
export const CLIENT: SessionID = { beginString: 'FIX.4.4', senderCompID: 'CLIENT1', targetCompID: 'BROKER' };
const codec = createSessionCodec();
const SOH = '\x01';

export function executionReport(clOrdID: string, n: number) {
  return outgoing('8', [
    [Tag.OrderID, `BRK-${n}`],
    [Tag.ClOrdID, clOrdID],
    [Tag.ExecID, `EX-${n}`],
    [Tag.ExecType, '0'],
    [Tag.OrdStatus, '0'],
    [Tag.Symbol, 'C5TC'],
    [Tag.Side, '1'],
    [Tag.LeavesQty, '10'],
    [Tag.CumQty, '0'],
    [Tag.AvgPx, '0'],
  ]);
}

export function order(clOrdID: string) {
  return outgoing('D', [
    [Tag.ClOrdID, clOrdID],
    [Tag.HandlInst, '1'],
    [Tag.Symbol, 'C5TC'],
    [Tag.Side, '1'],
    [Tag.TransactTime, '20240102-09:00:00.000'],
    [Tag.OrderQty, '10'],
    [Tag.OrdType, '1'],
  ]);
}

/** The broker side: acknowledges each order with an ExecutionReport. */
export class BrokerApp implements Application {
  acceptor: Acceptor | undefined;
  orders: string[] = [];
  private n = 0;
  async fromApp(m: InboundMessage, id: SessionID): Promise<void> {
    const clOrdID = m.get(Tag.ClOrdID)!;
    this.orders.push(clOrdID);
    await this.acceptor!.send(id, executionReport(clOrdID, ++this.n));
  }
}

export interface ReceivedReport {
  clOrdID: string;
  possDup: boolean;
  seq: number;
  sendingTime: string;
  origSendingTime: string | undefined;
  /** The fields after the standard header (49, 56, 34, 52, 43, 122) and before 10, joined by '|'. */
  body: string;
}

/** The client side: records ExecutionReports with their PossDup facts. */
export class ClientApp implements Application {
  reports: ReceivedReport[] = [];
  fromApp(m: InboundMessage): void {
    this.reports.push({
      clOrdID: m.get(Tag.ClOrdID)!,
      possDup: m.get(Tag.PossDupFlag) === 'Y',
      seq: Number(m.get(Tag.MsgSeqNum)),
      sendingTime: m.get(Tag.SendingTime)!,
      origSendingTime: m.get(Tag.OrigSendingTime),
      body: bodyOf(m.rawText),
    });
  }
}

/** The body of a raw message: what follows the last header field, up to the CheckSum. */
export function bodyOf(raw: string): string {
  const header = new Set([8, 9, 35, 34, 43, 49, 52, 56, 122]);
  return raw
    .split(SOH)
    .filter((f) => f && !header.has(Number(f.slice(0, f.indexOf('=')))) && !f.startsWith('10='))
    .join('|');
}

export async function startBroker(
  clock: ManualClock,
  stores: MessageStoreFactory,
  app: BrokerApp,
  port = 0,
  logFactory?: LogFactory,
): Promise<Acceptor> {
  const acceptor = await Acceptor.start({
    port,
    host: '127.0.0.1',
    authenticator: new CounterpartyAuthenticator((id) =>
      id.senderCompID === BROKER.senderCompID && id.targetCompID === BROKER.targetCompID ? { active: true } : undefined,
    ),
    app,
    storeFactory: stores,
    codec,
    clock,
    timers: clock,
    logFactory,
    defaultSettings: { heartBtIntSec: 30, checkLatency: false },
  });
  app.acceptor = acceptor;
  return acceptor;
}

export function startClient(clock: ManualClock, stores: MessageStoreFactory, app: ClientApp, port: number): Promise<Initiator> {
  return Initiator.start({
    host: '127.0.0.1',
    port,
    sessionID: CLIENT,
    settings: { heartBtIntSec: 30, checkLatency: false },
    app,
    storeFactory: stores,
    codec,
    clock,
    timers: clock,
    reconnect: { initialDelayMs: 1000, maxDelayMs: 8000, factor: 2 },
  });
}
