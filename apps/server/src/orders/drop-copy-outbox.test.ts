import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '@fixdesk/db';
import pino from 'pino';
import { DropCopyOutbox } from './drop-copy-outbox';

/** A database that answers the drop copy connectors' read with `covers` and counts every statement. */
function fakeDb(covers: Array<{ id: number; comp_id: string; drop_copy_of: string[] }>) {
  const statements: string[] = [];
  const db = {
    query: async (sql: string) => {
      statements.push(sql);
      if (sql.includes("session_type = 'drop_copy' AND is_active")) return { rows: covers };
      return { rows: [] };
    },
  } as unknown as Db;
  return { db, statements };
}

const silent = pino({ level: 'silent' });
const noSender = { send: async () => null };
const tick = () => new Promise((r) => setImmediate(r));

describe('DropCopyOutbox wake-up', () => {
  it('reads the drop copy connectors once, not per report, while none exists', async () => {
    const { db, statements } = fakeDb([]);
    const announced: string[] = [];
    const copies = new DropCopyOutbox(
      db,
      noSender,
      () => false,
      silent,
      (c) => announced.push(c),
    );
    copies.reportsMade('SGX_CLIENT_1');
    await tick();
    for (let i = 0; i < 1000; i++) copies.reportsMade(i % 2 ? 'SGX_CLIENT_1' : 'EEX_CLIENT_1');
    await tick();
    assert.equal(statements.length, 1);
    assert.deepEqual(announced, []);
    // A connector change reads them again, once.
    copies.invalidate();
    await tick();
    copies.reportsMade('SGX_CLIENT_1');
    await tick();
    assert.equal(statements.length, 2);
  });

  it('announces a covering drop copy session logged on nowhere here, once per burst of reports, and only for the clients it covers', async () => {
    const { db, statements } = fakeDb([
      { id: 7, comp_id: 'MIDDLE_OFFICE', drop_copy_of: ['SGX_CLIENT_1'] },
      { id: 8, comp_id: 'BACK_OFFICE', drop_copy_of: [] },
    ]);
    const announced: string[] = [];
    const copies = new DropCopyOutbox(
      db,
      noSender,
      () => false,
      silent,
      (c) => announced.push(c),
    );
    copies.reportsMade('EEX_CLIENT_1');
    await tick();
    // Told while the covers loaded: the client's sessions are announced once they are known.
    assert.deepEqual(announced, ['BACK_OFFICE']);
    for (let i = 0; i < 500; i++) copies.reportsMade('SGX_CLIENT_1');
    assert.deepEqual(announced, ['BACK_OFFICE', 'MIDDLE_OFFICE']);
    // The burst's later reports make one more announcement each at the end of the quiet period, then nothing.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual([...announced].sort(), ['BACK_OFFICE', 'BACK_OFFICE', 'MIDDLE_OFFICE', 'MIDDLE_OFFICE']);
    assert.equal(statements.length, 1, 'no statement per report');
  });

  it('leaves a session logged on here but not recovered yet to its recovery (no announcement, no read)', async () => {
    const { db, statements } = fakeDb([{ id: 7, comp_id: 'MIDDLE_OFFICE', drop_copy_of: [] }]);
    const announced: string[] = [];
    const copies = new DropCopyOutbox(
      db,
      noSender,
      (c) => c === 'MIDDLE_OFFICE',
      silent,
      (c) => announced.push(c),
    );
    copies.reportsMade('SGX_CLIENT_1');
    await tick();
    copies.reportsMade('SGX_CLIENT_1');
    await tick();
    assert.deepEqual(announced, []);
    assert.equal(statements.length, 1);
    assert.equal(copies.serves('MIDDLE_OFFICE'), false);
  });
});

/** A refusal copy as unsentDropCopies reads it: one JSON array per row (the copy's 5 values first). */
function refusalCopyRow(id: number): [unknown[]] {
  const refusal = {
    clOrdId: `C${id}`,
    side: '1',
    symbol: 'FFA_CAPE',
    orderQty: '5',
    ordType: '2',
    price: '100',
    account: null,
    ordRejReason: '99',
    text: 'refused',
    execId: `E${id}`,
    transactTime: '2026-12-01T10:00:00.000Z',
  };
  return [[id, 'refusal', 'SGX_CLIENT_1', null, refusal]];
}

describe('DropCopyOutbox drain', () => {
  it('drains again when woken while it marks what it sent after its last read (the wake is not lost)', async () => {
    const committed: Array<Array<[unknown[]]>> = [[refusalCopyRow(1)]];
    let releaseMark: (() => void) | undefined;
    let markStarted: (() => void) | undefined;
    const marking = new Promise<void>((r) => (markStarted = r));
    const db = {
      query: async (sql: string) => {
        if (sql.includes("session_type = 'drop_copy' AND is_active"))
          return { rows: [{ id: 7, comp_id: 'MIDDLE_OFFICE', drop_copy_of: [] }] };
        if (sql.includes('max(id)')) return { rows: [{ id: null }] };
        if (sql.includes('FROM drop_copies c')) return { rows: committed.shift() ?? [] };
        if (sql.includes('marked AS (UPDATE drop_copies') && !releaseMark) {
          // The last burst's mark is slow: the next report commits, and its wake comes, meanwhile.
          markStarted!();
          await new Promise<void>((r) => (releaseMark = r));
        }
        return { rows: [] };
      },
    } as unknown as Db;
    const sent: string[] = [];
    let seq = 0;
    const sender = {
      send: async (_compId: string, msg: { body: Array<[number, string]> }) => {
        sent.push(msg.body.find(([tag]) => tag === 17)![1]);
        return ++seq;
      },
    };
    const copies = new DropCopyOutbox(db, sender, () => true, silent);
    await copies.recover('MIDDLE_OFFICE');
    await marking;
    assert.deepEqual(sent, ['E1']);
    committed.push([refusalCopyRow(2)]);
    copies.reportsMade('SGX_CLIENT_1');
    releaseMark!();
    await copies.idle();
    await tick();
    await copies.idle();
    assert.deepEqual(sent, ['E1', 'E2'], 'the copy made while the drain marked goes out without another wake');
  });
});
