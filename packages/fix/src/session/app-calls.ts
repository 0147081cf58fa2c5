import { Tag } from '@fixdesk/fix-codes';
import { BusinessRejectError, SessionRejectError, type Application, type AppReceipt } from './application';
import type { AdminSender } from './admin-messages';
import type { SessionLog } from './log';
import type { InboundMessage } from './message';
import { errorText } from './outbound';
import type { SessionID } from './session-id';
import type { AppCallbacks } from './session-state';

/**
 * The application callbacks the current event waits for (fromApp, fromAdmin, onLogon, onLogout). While
 * one runs (inCallback), a send goes out at once instead of queueing behind the event that waits for it.
 */
export class AppCalls implements AppCallbacks {
  private running = 0;

  constructor(
    private readonly id: SessionID,
    private readonly app: Application,
    private readonly log: SessionLog,
    private readonly admin: AdminSender,
  ) {}

  /** An application callback the current event waits for is running. */
  get inCallback(): boolean {
    return this.running > 0;
  }

  /** Runs a callback the current event waits for; one that returns no promise is done when it returns. */
  private call<T>(call: () => T | PromiseLike<T>): T | Promise<T> {
    this.running += 1;
    let result: T | PromiseLike<T>;
    try {
      result = call();
    } catch (err) {
      this.running -= 1;
      throw err;
    }
    if (typeof (result as PromiseLike<T> | undefined)?.then !== 'function') {
      this.running -= 1;
      return result as T;
    }
    return Promise.resolve(result).then(
      (value) => {
        this.running -= 1;
        return value;
      },
      (err: unknown) => {
        this.running -= 1;
        throw err;
      },
    );
  }

  async fromAdmin(message: InboundMessage): Promise<void> {
    const fromAdmin = this.app.fromAdmin;
    if (fromAdmin) await this.call(() => fromAdmin.call(this.app, message, this.id));
  }

  fromApp(message: InboundMessage): Promise<AppReceipt | void | undefined> {
    return Promise.resolve(this.call(() => this.app.fromApp(message, this.id)));
  }

  async onLogon(): Promise<void> {
    const onLogon = this.app.onLogon;
    if (onLogon) await this.call(() => onLogon.call(this.app, this.id));
  }

  /** The logged-on connection ended; a failing onLogout is logged. */
  async onLogout(reason: string): Promise<void> {
    try {
      const onLogout = this.app.onLogout;
      if (onLogout) await this.call(() => onLogout.call(this.app, this.id, reason));
    } catch (err) {
      this.log.onEvent(`onLogout failed: ${errorText(err)}`);
    }
  }

  async answerFailure(message: InboundMessage, err: unknown): Promise<void> {
    if (err instanceof BusinessRejectError) await this.admin.businessReject(message, err.reason, err.text, err.refID);
    else if (err instanceof SessionRejectError) await this.admin.reject(message, err.reason, err.text, err.refTagID);
    else {
      this.log.onEvent(`fromApp failed for MsgSeqNum ${message.get(Tag.MsgSeqNum)}: ${errorText(err)}`);
      await this.admin.businessReject(message, '0', 'Application error', message.get(Tag.ClOrdID));
    }
  }
}
