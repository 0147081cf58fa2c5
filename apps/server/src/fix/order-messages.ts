import { BusinessRejectError, messageTrace, MsgType, Tag, traceNow, type AppReceipt, type FixMessage, type SessionID } from '@fixdesk/fix';
import type { IncomingNewOrder } from '../orders/intake';
import type { OrderService } from '../orders/order-service';

// The application side of a client's session: its order messages read into the order core's input
// and handed to it. A message counts as processed only once the order core is done with it.

/** NewOrderSingle or NewOrderMultileg: an order the intake takes. */
export function isNewOrderMessage(msgType: string): boolean {
  return msgType === MsgType.NewOrderSingle || msgType === MsgType.NewOrderMultileg;
}

/** A field's value; an empty one counts as absent. */
function text(m: FixMessage, tag: number): string | undefined {
  const v = m.get(tag);
  return v === undefined || v === '' ? undefined : v;
}

/** Reads a NewOrderSingle or NewOrderMultileg into the order core's input. */
export function readNewOrder(m: FixMessage, id: SessionID): IncomingNewOrder {
  const parties: IncomingNewOrder['parties'] = m.getGroup(Tag.NoPartyIDs).map((p) => ({
    partyId: p.get(Tag.PartyID) ?? '',
    partyIdSource: p.get(Tag.PartyIDSource) ?? null,
    partyRole: Number(p.get(Tag.PartyRole) ?? 0),
    legIndex: null,
  }));
  const legs = m.getGroup(Tag.NoLegs).map((l, i) => {
    for (const np of l.getGroup(Tag.NoNestedPartyIDs)) {
      parties.push({
        partyId: np.get(Tag.NestedPartyID) ?? '',
        partyIdSource: np.get(Tag.NestedPartyIDSource) ?? null,
        partyRole: Number(np.get(Tag.NestedPartyRole) ?? 0),
        legIndex: i,
      });
    }
    return {
      symbol: l.get(Tag.LegSymbol),
      side: l.get(Tag.LegSide),
      ratio: l.get(Tag.LegRatioQty),
      maturityMonthYear: l.get(Tag.LegMaturityMonthYear),
      securityType: l.get(Tag.LegSecurityType),
    };
  });
  let transactTime: Date | undefined;
  try {
    transactTime = m.has(Tag.TransactTime) ? m.getTimestamp(Tag.TransactTime)?.date : undefined;
  } catch {
    transactTime = undefined;
  }
  return {
    msgType: m.msgType === MsgType.NewOrderMultileg ? MsgType.NewOrderMultileg : MsgType.NewOrderSingle,
    senderCompId: id.targetCompID,
    targetCompId: id.senderCompID,
    clOrdId: text(m, Tag.ClOrdID),
    side: text(m, Tag.Side),
    ordType: text(m, Tag.OrdType),
    orderQty: text(m, Tag.OrderQty),
    price: text(m, Tag.Price),
    symbol: text(m, Tag.Symbol),
    securityType: text(m, Tag.SecurityType),
    maturityMonthYear: text(m, Tag.MaturityMonthYear),
    timeInForce: text(m, Tag.TimeInForce),
    exDestination: text(m, Tag.ExDestination),
    currency: text(m, Tag.Currency),
    account: text(m, Tag.Account),
    text: text(m, Tag.Text),
    transactTime,
    possibleDuplicate: m.get(Tag.PossDupFlag) === 'Y' || m.get(Tag.PossResend) === 'Y',
    legs: legs.map((l) => ({
      ...(l.symbol !== undefined ? { symbol: l.symbol } : {}),
      ...(l.side !== undefined ? { side: l.side } : {}),
      ...(l.ratio !== undefined ? { ratio: l.ratio } : {}),
      ...(l.maturityMonthYear !== undefined ? { maturityMonthYear: l.maturityMonthYear } : {}),
      ...(l.securityType !== undefined ? { securityType: l.securityType } : {}),
    })),
    parties,
  };
}

/**
 * Hands a client's application message to the order core; the receipt names the order a new order
 * created (its audit record carries it). Any other message type gets a BusinessMessageReject.
 */
export async function handleOrderMessage(
  m: FixMessage,
  id: SessionID,
  orders: OrderService,
  /** Seconds from a new order's arrival to its answer (the intake histogram). */
  observeIntake?: (seconds: number) => void,
): Promise<AppReceipt | undefined> {
  const compId = id.targetCompID;
  switch (m.msgType) {
    case MsgType.NewOrderSingle:
    case MsgType.NewOrderMultileg: {
      const t0 = performance.now();
      if (messageTrace.sink) messageTrace.sink('app.fromApp', text(m, Tag.ClOrdID) ?? '', traceNow());
      const result = await orders.receiveNewOrder(readNewOrder(m, id));
      observeIntake?.((performance.now() - t0) / 1000);
      // The audit record of the client's order message names the order it created.
      return result.brokerOrderId ? { brokerOrderID: result.brokerOrderId } : undefined;
    }
    case MsgType.OrderCancelRequest:
    case MsgType.OrderCancelReplaceRequest:
      await orders.receiveCancelOrReplace({
        kind: m.msgType,
        senderCompId: compId,
        clOrdId: text(m, Tag.ClOrdID) ?? '',
        origClOrdId: text(m, Tag.OrigClOrdID) ?? '',
        orderId: text(m, Tag.OrderID),
        orderQty: text(m, Tag.OrderQty),
        price: text(m, Tag.Price),
        ordType: text(m, Tag.OrdType),
        text: text(m, Tag.Text),
      });
      return undefined;
    case MsgType.OrderStatusRequest:
      await orders.receiveStatusRequest(compId, text(m, Tag.ClOrdID) ?? '', text(m, Tag.OrderID), text(m, Tag.Side), text(m, Tag.Symbol));
      return undefined;
    default:
      // BusinessRejectReason 3: Unsupported Message Type.
      throw new BusinessRejectError('3', 'Unsupported Message Type');
  }
}
