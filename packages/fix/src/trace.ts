// A trace of application messages through the engine, for the order benchmark (bench/orders.ts
// --trace): off unless a sink is set, and then each stage of a message carrying a ClOrdID (11) is
// stamped with process.hrtime (CLOCK_MONOTONIC, the same clock in every process of the machine, so a
// client process's stamps and the server's can be subtracted). Nothing here runs while it is off
// beyond one property read.

/** Receives each stamp: the stage, the message's ClOrdID, the time in nanoseconds (hrtime). */
export type TraceSink = (stage: string, clOrdId: string, atNs: number) => void;

export const messageTrace: { sink: TraceSink | undefined } = { sink: undefined };

/** Now in nanoseconds on the machine-wide monotonic clock. */
export function traceNow(): number {
  return Number(process.hrtime.bigint());
}

const CLORDID = Buffer.from('\x0111=', 'latin1');

/** Stamps `stage` for every message in `bytes` (one or several whole FIX messages) that carries a ClOrdID. */
export function traceBytes(sink: TraceSink, stage: string, bytes: Buffer, atNs: number = traceNow()): void {
  let at = bytes.indexOf(CLORDID);
  while (at >= 0) {
    const start = at + CLORDID.length;
    const end = bytes.indexOf(1, start);
    if (end < 0) return;
    sink(stage, bytes.toString('latin1', start, end), atNs);
    at = bytes.indexOf(CLORDID, end);
  }
}
