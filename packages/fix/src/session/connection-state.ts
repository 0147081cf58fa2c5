import type { SessionTransport } from './outbound';
import type { ConnectionView } from './session-state';

/**
 * What a session keeps for its current connection. The session opens and closes it; the states read it
 * (ConnectionView) and set only the marks that view names; the admin sends note when they went out.
 */
export class ConnectionState implements ConnectionView {
  private current: SessionTransport | undefined;
  private logged = false;
  private resetSent = false;
  private heartBt: number;
  private openedAt = 0;
  private receivedAt = 0;
  private testRequestAt: number | undefined;
  private logoutAt: number | undefined;

  constructor(
    heartBtIntSec: number,
    /** When bytes last went to the socket (the outbound pipeline's). */
    private readonly sentAt: () => number,
  ) {
    this.heartBt = heartBtIntSec;
  }

  get transport(): SessionTransport | undefined {
    return this.current;
  }
  get connected(): boolean {
    return this.current !== undefined;
  }
  /** Set once both Logons were exchanged on the current connection. */
  get loggedOn(): boolean {
    return this.logged;
  }
  get heartBtIntSec(): number {
    return this.heartBt;
  }
  get resetSentInLogon(): boolean {
    return this.resetSent;
  }
  get connectedAt(): number {
    return this.openedAt;
  }
  get lastReceivedAt(): number {
    return this.receivedAt;
  }
  get lastSentAt(): number {
    return this.sentAt();
  }
  get testRequestSentAt(): number | undefined {
    return this.testRequestAt;
  }
  get logoutSentAt(): number | undefined {
    return this.logoutAt;
  }

  /** A new connection: everything kept for the last one starts again (HeartBtInt stays until a logon sets it). */
  open(transport: SessionTransport, now: number): void {
    this.current = transport;
    this.openedAt = now;
    this.receivedAt = now;
    this.logged = false;
    this.resetSent = false;
    this.logoutAt = undefined;
    this.testRequestAt = undefined;
  }

  /** The connection is gone; returns it and whether it was logged on. */
  close(): { transport: SessionTransport | undefined; wasLoggedOn: boolean } {
    const closed = { transport: this.current, wasLoggedOn: this.logged };
    this.current = undefined;
    this.logged = false;
    return closed;
  }

  received(now: number): void {
    this.receivedAt = now;
  }
  setHeartBtInt(heartBtIntSec: number): void {
    this.heartBt = heartBtIntSec;
  }
  /** Our Logon is going out, with 141=Y or without. */
  logonSent(resetSeqNum: boolean): void {
    this.resetSent = resetSeqNum;
  }
  testRequestSent(now: number): void {
    this.testRequestAt = now;
  }
  logoutSent(now: number): void {
    this.logoutAt = now;
  }

  markLoggedOn(): void {
    this.logged = true;
  }
  resetAnswered(): void {
    this.resetSent = false;
  }
  testRequestAnswered(): void {
    this.testRequestAt = undefined;
  }
}
