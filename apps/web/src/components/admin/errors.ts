import { ApiError, serverMessage } from '@fixdesk/client';

/**
 * Spec 001 §8: an error banner shows the server's message or error field, falling back to the screen's
 * generic text; a failure without an answer (network, or a fault in the page) gets "{prefix}: {message}".
 */
export function adminErrorText(err: unknown, fallback: string, whenNoAnswer: (message: string) => string): string {
  if (err instanceof ApiError) return serverMessage(err.body) ?? fallback;
  return whenNoAnswer(err instanceof Error ? err.message : String(err));
}
