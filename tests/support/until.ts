/**
 * Polls `check` until it answers something other than undefined, null or false, and returns that
 * answer; fails with "timed out waiting for {what}" once `timeoutMs` has passed. A check may be
 * synchronous or asynchronous; a rejection ends the wait with that error.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined && answer !== null && answer !== false) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
