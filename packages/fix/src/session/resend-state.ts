import { loggedOnState } from './in-session';
import type { SessionState } from './session-state';

/**
 * Logged on with an inbound gap: our ResendRequest is out, later messages wait in the session's queue
 * and reach the application only once the gap is filled, in MsgSeqNum order.
 */
export const resendState: SessionState = loggedOnState('resend');
