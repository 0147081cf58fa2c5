import { loggedOnState } from './logged-on-state';
import { loggedOnMessage } from './in-session';
import type { SessionState } from './session-state';

/**
 * Logged on with an inbound gap: our ResendRequest is out, later messages wait in the gap queue
 * (inbound.ts) and reach the application only once the gap is filled, in MsgSeqNum order. A message
 * above the expected number opens the gap (from in session) or widens it (here, without asking again):
 * gap-queue.ts.
 */
export const resendState: SessionState = loggedOnState('resend', (ctx, message) => loggedOnMessage(ctx, message));
