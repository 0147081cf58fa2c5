// The framing step of our receive path, which bench/fix-codec.ts leaves out (its parser gets an
// already-framed message): FixFramer.push on one NewOrderSingle (or NewOrderMultileg) per socket chunk, checking BodyLength
// and CheckSum and copying the message out, as a session's connection does. QuickFIX's
// Message(string, dd, true) and jspurefix's session check both in their parse, so bench/run.ts adds
// this to our parse figure for a like-for-like receive path.
//   npx tsx bench/codec-framing.ts      prints one JSON object
import { FixFramer } from '../packages/fix/src/index';
import { NEW_ORDER_MULTILEG, NEW_ORDER_SINGLE } from './codec-messages';

const framer = new FixFramer({ beginString: 'FIX.4.4' });
const frameOne = (bytes: Buffer) => {
  const frames = framer.push(bytes);
  if (frames.length !== 1 || frames[0]!.kind !== 'message') throw new Error(`framing failed: ${JSON.stringify(frames.map((f) => f.kind))}`);
  return frames;
};

function measure(name: string, bytes: Buffer, opsPerRound: number, rounds: number) {
  for (let i = 0; i < opsPerRound * 3; i++) frameOne(bytes);
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < opsPerRound; i++) frameOne(bytes);
    rates.push(Math.round((opsPerRound * 1e9) / Number(process.hrtime.bigint() - t0)));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return { name, medianPerSec: sorted[Math.floor(sorted.length / 2)]!, rounds: rates };
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const results = [measure('nos_frame', NEW_ORDER_SINGLE, 300_000, rounds), measure('multileg_frame', NEW_ORDER_MULTILEG, 200_000, rounds)];
console.log(JSON.stringify({ benchmark: 'fix-framing', results }));
