// The session's own bytes in QuickFIX's field order: 8, 9, 35, the header by tag, the body by tag with
// each repeating group at its NumInGroup tag and its entries' fields in dictionary order, 10. The
// expected strings follow that rule (QuickFIX's FieldMap order); the group message is also checked
// against FixEncoder.encode, whose order encoder.test.ts pins down.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixEncoder, FixMessageBuilder } from '../codec/encoder';
import { inQuickFixOrder } from '../codec/field-order';
import { formatUtcTimestamp } from '../codec/values';
import { Dictionary } from '../dictionary/dictionary';
import { MemoryStoreFactory } from '../store/memory-store';
import { BusinessRejectError, type Application } from './application';
import { ManualClock } from './clock';
import { createSessionCodec } from './codec-adapter';
import { MemoryLogFactory } from './log';
import { outgoing } from './message';
import { RecordingTransport } from './recording-transport.test-support';
import { Session } from './session';
import type { SessionID } from './session-id';
import { sessionSettings } from './session-settings';

const codec = createSessionCodec();
const ID: SessionID = { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: 'CLIENT' };
const T0 = Date.UTC(2024, 0, 2, 9, 0, 0);
const STAMP = formatUtcTimestamp(T0);

/** "8=...|9=...|" and "|10=...|" stripped: the fields between, as sent. */
const inner = (wire: string) => wire.replace(/^8=[^|]*\|9=\d+\|/, '').replace(/10=\d{3}\|$/, '');

async function loggedOn(app: Application) {
  const clock = new ManualClock(T0);
  const store = await new MemoryStoreFactory().open(ID, new Date(T0));
  const session = await Session.create({
    id: ID,
    settings: sessionSettings('acceptor', { checkLatency: false }),
    store,
    app,
    log: new MemoryLogFactory().create(ID),
    clock,
    timers: clock,
    codec,
  });
  const transport = new RecordingTransport();
  const receive = (msgType: string, seq: number, body: Array<[number, string]>, header: Array<[number, string]> = []) =>
    session.receive(
      transport,
      codec.decode(
        codec.encode('FIX.4.4', msgType, [[49, 'CLIENT'], [56, 'BROKER'], [34, String(seq)], [52, STAMP], ...header], body, 'asGiven'),
      ),
    );
  await session.connect(transport);
  await receive('A', 1, [
    [98, '0'],
    [108, '30'],
  ]);
  assert.equal(session.status().state, 'inSession');
  transport.take();
  return { session, transport, receive };
}

/** An ExecutionReport given in scrambled order, with a Parties group whose entries are scrambled too (and a nested group). */
const SCRAMBLED_ER: Array<[number, string]> = [
  [17, 'E1'],
  [37, 'O1'],
  [150, 'F'],
  [39, '2'],
  [453, '2'],
  [452, '3'],
  [448, 'ACME'],
  [447, 'D'],
  [448, 'BRKR'],
  [802, '1'],
  [803, '2'],
  [523, 'X'],
  [452, '1'],
  [447, 'D'],
  [54, '1'],
  [55, 'C5TC'],
  [151, '0'],
  [14, '10'],
  [6, '12.5'],
  [11, 'C1'],
  [60, STAMP],
  [31, '12.5'],
  [32, '10'],
];
const QUICKFIX_ER =
  `6=12.5|11=C1|14=10|17=E1|31=12.5|32=10|37=O1|39=2|54=1|55=C5TC|60=${STAMP}|150=F|151=0|` +
  '453=2|448=ACME|447=D|452=3|448=BRKR|447=D|452=1|802=1|523=X|803=2|';

describe('session output in QuickFIX field order', () => {
  it('Reject (35=3): 45, 58, 371, 372, 373', async () => {
    const r = await loggedOn({ fromApp: () => {} });
    // NewOrderSingle without Side (54).
    await r.receive('D', 2, [
      [11, 'C1'],
      [21, '1'],
      [38, '10'],
      [40, '1'],
      [55, 'C5TC'],
      [60, STAMP],
    ]);
    await r.session.idle();
    assert.equal(
      inner(r.transport.take()[0]!),
      `35=3|34=2|49=BROKER|52=${STAMP}|56=CLIENT|45=2|58=Required tag missing|371=54|372=D|373=1|`,
    );
  });

  it('BusinessMessageReject (35=j): 45, 58, 372, 379, 380', async () => {
    const r = await loggedOn({
      fromApp: () => {
        throw new BusinessRejectError('0', 'No thanks', 'C1');
      },
    });
    await r.receive('D', 2, [
      [11, 'C1'],
      [21, '1'],
      [38, '10'],
      [40, '1'],
      [54, '1'],
      [55, 'C5TC'],
      [60, STAMP],
    ]);
    await r.session.idle();
    assert.equal(inner(r.transport.take()[0]!), `35=j|34=2|49=BROKER|52=${STAMP}|56=CLIENT|45=2|58=No thanks|372=D|379=C1|380=0|`);
  });

  it('SequenceReset-GapFill (35=4): 36 before 123, PossDupFlag and OrigSendingTime in the header by tag', async () => {
    const r = await loggedOn({ fromApp: () => {} });
    await r.session.send(outgoing('1', [[112, 'T']])); // admin: gap-filled on resend
    await r.session.send(outgoing('8', SCRAMBLED_ER));
    r.transport.take();
    await r.receive('2', 2, [
      [7, '1'],
      [16, '0'],
    ]);
    await r.session.idle();
    const [gapFill, replay] = r.transport.take();
    assert.equal(inner(gapFill!), `35=4|34=1|43=Y|49=BROKER|52=${STAMP}|56=CLIENT|122=${STAMP}|36=3|123=Y|`);
    // 34=1 was our Logon, 2 the TestRequest (both gap-filled), 3 the ExecutionReport (replayed as stored).
    assert.match(
      inner(replay!),
      new RegExp(
        `^35=8\\|34=3\\|43=Y\\|49=BROKER\\|52=${STAMP}\\|56=CLIENT\\|122=${STAMP}\\|${QUICKFIX_ER.replaceAll('|', '\\|').replaceAll('.', '\\.')}$`,
      ),
    );
  });

  it('an application message with nested groups passed unsorted, byte for byte as FixEncoder.encode writes it', async () => {
    const r = await loggedOn({ fromApp: () => {} });
    await r.session.send(outgoing('8', SCRAMBLED_ER));
    const sent = r.transport.take()[0]!;
    assert.equal(inner(sent), `35=8|34=2|49=BROKER|52=${STAMP}|56=CLIENT|${QUICKFIX_ER}`);
    const builder = new FixMessageBuilder('8').set(34, 2).set(49, 'BROKER').set(52, STAMP).set(56, 'CLIENT');
    for (const [tag, value] of SCRAMBLED_ER.filter(([t]) => ![453, 448, 447, 452, 802, 803, 523].includes(t))) builder.set(tag, value);
    builder.setGroup(453, [
      { 452: '3', 448: 'ACME', 447: 'D' },
      { 448: 'BRKR', 802: [{ 803: '2', 523: 'X' }], 452: '1', 447: 'D' },
    ]);
    assert.equal(sent, new FixEncoder().encode(builder).toString('latin1').replaceAll('\x01', '|'));
  });

  it('fields already in order are passed through untouched (the fast path allocates nothing)', () => {
    const scope = Dictionary.fix44().message('8')!.body;
    const ordered: Array<[number, string]> = [
      [6, '1'],
      [11, 'A'],
      [14, '0'],
      [17, 'E'],
      [37, 'O'],
    ];
    assert.equal(inQuickFixOrder(scope, ordered), ordered);
    const withGroup: Array<[number, string]> = [
      [6, '1'],
      [453, '1'],
      [448, 'A'],
      [447, 'D'],
      [452, '3'],
      [1057, 'Y'],
    ];
    assert.equal(inQuickFixOrder(scope, withGroup), withGroup, 'a group already in order: the same array back');
    // A body tag that follows a group is not swallowed into its last entry.
    assert.deepEqual(
      inQuickFixOrder(scope, [
        [453, '1'],
        [448, 'A'],
        [11, 'C'],
      ]),
      [
        [11, 'C'],
        [453, '1'],
        [448, 'A'],
      ],
    );
  });
});
