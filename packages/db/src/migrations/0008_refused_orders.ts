// Orders refused at intake (unknown symbol, no permission, duplicate ClOrdID, rate, bad terms) are
// records too: the client tried to trade and was told why not (ExecutionReport 150=8). They are kept
// apart from `orders`, whose (client, day, ClOrdID) key belongs to accepted orders only: a refused
// duplicate must never take the original's key, and a refused order's terms may be anything the
// client sent (no side, a price that is not a number), so they are stored as the wire text.
// Their ids come from the orders' own sequence: an order and a refused order never share an id, so
// the blotter, the order list and /api/orders/{id} address both alike.
export default /* sql */ `
CREATE TABLE refused_orders (
  id                   bigint PRIMARY KEY DEFAULT nextval('orders_id_seq'),
  sendercompid         text NOT NULL,
  targetcompid         text NOT NULL,
  -- null when the SenderCompID is no active connector of ours
  client_connector_id  integer REFERENCES client_connectors (id),
  session_date         date,
  msg_type             text NOT NULL,
  clordid              text,
  symbol               text,
  security_type        text,
  maturity_month_year  text,
  side                 text,
  ordtype              text,
  price                text,
  orderqty             text,
  timeinforce          text,
  exchange             text,
  currency             text,
  account              text,
  text                 text,
  legs                 jsonb NOT NULL DEFAULT '[]'::jsonb,
  ordrejreason         integer NOT NULL,
  reject_text          text NOT NULL,
  -- the ExecID of the 150=8 report that told the client
  execid               text,
  transacttime         timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refused_orders_created_idx ON refused_orders (created_at DESC);
CREATE INDEX refused_orders_clordid_idx ON refused_orders (sendercompid, clordid);
`;
