import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brokerCancelConsequence, doneForDayConsequence, refuseRequestConsequence, rejectConsequence } from './consequences';

const order = {
  side: '2' as const,
  orderqty: '20',
  cumqty: '5',
  leavesqty: '15',
  price: '24500',
  symbol: 'C5TC - Capesize 5TC',
  brokerorderid: 'ORD-7',
  client_name: 'Straits Capital',
  sendercompid: 'SGX_CLIENT_1',
};

describe('what an irreversible action does, said before it is done', () => {
  it('Done for Day on a 5/20 partial fill: 15 lots will not be worked', () => {
    const c = doneForDayConsequence(order);
    assert.match(
      c.summary,
      /^ORD-7: sell 20 C5TC for Straits Capital\. Ends the order: 15 lots unfilled will not be worked \(5 of 20 filled\)/,
    );
    assert.equal(c.confirmLabel, 'Done for Day');
  });

  it('Done for Day on a filled order only closes it', () => {
    assert.match(doneForDayConsequence({ ...order, cumqty: '20', leavesqty: '0' }).summary, /all 20 lots are filled/);
  });

  it('Reject and refusals carry the reason the client will read', () => {
    assert.match(
      rejectConsequence({ ...order, cumqty: '0', leavesqty: '20' }, ' Outside limits ').summary,
      /Rejected \(150=8\) with the reason “Outside limits”/,
    );
    assert.match(refuseRequestConsequence(order, 'cancel', 'Working').summary, /stays working with 15 lots open; .*OrderCancelReject/);
    assert.match(refuseRequestConsequence(order, 'replace', 'No').summary, /stays at 20 @ 24,500/);
  });

  it('a broker cancel ends what is unfilled and keeps the fills', () => {
    const c = brokerCancelConsequence(order, 'Client asked by phone');
    assert.match(
      c.summary,
      /15 lots unfilled will not be worked \(the 5 filled stand\)\. The client gets Canceled \(150=4\) with the reason “Client asked by phone”/,
    );
  });
});
