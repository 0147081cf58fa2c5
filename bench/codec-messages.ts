// The messages of the codec benchmark, for the engines compared with ours (QuickFIX C++, jspurefix).
// They are the bytes bench/fix-codec.ts measures our engine on; bench/run.ts checks the sizes it
// reports against these, and the QuickFIX ExecutionReport against ours byte for byte, so the engines
// are compared on the same input.
export const SOH = '\x01';

export function frame(body: string): Buffer {
  const b = body.replaceAll('|', SOH);
  const head = `8=FIX.4.4${SOH}9=${Buffer.byteLength(b, 'latin1')}${SOH}`;
  const msg = head + b;
  let sum = 0;
  for (let i = 0; i < msg.length; i++) sum += msg.charCodeAt(i);
  return Buffer.from(`${msg}10=${String(sum % 256).padStart(3, '0')}${SOH}`, 'latin1');
}

/** NewOrderSingle as a client desk sends it: account, FFA instrument, limit price, two parties. */
export const NEW_ORDER_SINGLE = frame(
  '35=D|34=1542|49=CLIENTDESK1|52=20260315-09:30:01.123|56=FIXDESKBRK|1=ACC-7788|11=ORD-000042|' +
    '38=2500|40=2|44=14325.50|54=1|55=TD3C|59=0|60=20260315-09:30:01.120|167=FUT|200=202604|' +
    '453=2|448=JSMITH|447=D|452=11|448=ACME-CAP|447=D|452=3|',
);

/** NewOrderMultileg: a two-leg calendar spread, one party, a nested party per leg. */
export const NEW_ORDER_MULTILEG = frame(
  '35=AB|34=1543|49=CLIENTDESK01|52=20260315-09:30:02.456|56=FIXDESKBRK|1=ACC-778812|11=ML-20260315-000007|' +
    '40=2|44=-125.25|54=1|55=TD3C-SPREAD|60=20260315-09:30:02.450|' +
    '453=1|448=TRADER-JSMITH|447=D|452=11|' +
    '555=2|600=TD3C|608=FXXXXX|610=202604|623=1|624=1|687=1000|539=1|524=ACME-CAPITAL|525=D|538=3|' +
    '600=TD3C|608=FXXXXX|610=202605|623=1|624=2|687=1000|539=1|524=ACME-CAPITAL|525=D|538=3|',
);

/** The ExecutionReport (a partial fill) every engine builds and encodes; MsgSeqNum counts up from 1001. */
export const EXECUTION_REPORT = {
  header: { 49: 'FIXDESKBRK', 52: '20260315-09:30:01.200', 56: 'CLIENTDESK01' } as Record<number, string>,
  body: {
    1: 'ACC-778812',
    6: '14325.5',
    11: 'ORD-20260315-000042',
    14: '1000',
    17: 'EXE-20260315-0000981',
    31: '14325.5',
    32: '1000',
    37: 'BRK-20260315-000042',
    38: '2500',
    39: '1',
    40: '2',
    44: '14325.50',
    54: '1',
    55: 'TD3C',
    59: '0',
    60: '20260315-09:30:01.199',
    150: 'F',
    151: '1500',
    167: 'FUT',
    200: '202604',
  } as Record<number, string>,
  firstSeqNum: 1001,
};
