// Desk Insights rollups (issue 31, docs/adr/0019): the charts' figures pre-aggregated per client and
// exchange per bucket of UTC, in three widths (15, 60 and 1440 minutes), written by a background
// roll-up (packages/db/src/repos/insights-rollup.ts), never by the intake: no trigger on any table the
// intake writes. `client` and `exch` hold '*' for "every trading client" and "any exchange" (each
// order is counted once under '*' and once under each of its own keys), so a call for the whole desk
// reads one row per bucket. The calls read these for what is folded and the raw rows for the rest.
export default /* sql */ `
-- How far the roll-up has folded: orders and refusals created before orders_horizon (the database's
-- time of their write), and order actions up to action_id (ids, in insertion order). One row, locked
-- FOR UPDATE by the node that folds, so two nodes never fold the same rows.
CREATE TABLE insights_rollup_state (
  id               integer PRIMARY KEY CHECK (id = 1),
  orders_horizon   timestamptz NOT NULL DEFAULT '-infinity',
  action_id        bigint NOT NULL DEFAULT 0,
  folded_at        timestamptz
);
INSERT INTO insights_rollup_state (id) VALUES (1);

-- Per bucket of arrival (orders, refusals) or of action (accepts, rejects, fills).
CREATE TABLE insights_flow (
  width     smallint NOT NULL,
  client    text NOT NULL,
  exch      text NOT NULL,
  bucket    timestamptz NOT NULL,
  received  integer NOT NULL DEFAULT 0,
  refused   integer NOT NULL DEFAULT 0,
  accepted  integer NOT NULL DEFAULT 0,
  rejected  integer NOT NULL DEFAULT 0,
  filled    integer NOT NULL DEFAULT 0,
  -- lots filled (FILL and PARTIAL_FILL; a spread's on its legs), by the fill's time
  lots      numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (width, client, exch, bucket)
);

-- Orders per bucket of arrival: how many, their quantity ordered and filled (as of the last fold of
-- each order, insights_order_qty).
CREATE TABLE insights_book (
  width    smallint NOT NULL,
  client   text NOT NULL,
  exch     text NOT NULL,
  bucket   timestamptz NOT NULL,
  orders   integer NOT NULL DEFAULT 0,
  ordered  numeric NOT NULL DEFAULT 0,
  filled   numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (width, client, exch, bucket)
);
CREATE TABLE insights_order_qty (
  order_id  bigint PRIMARY KEY,
  orderqty  numeric NOT NULL,
  cumqty    numeric NOT NULL
);

-- Time to answer per bucket of the order's arrival, for the whole desk (client '*' only; widths 60 and
-- 1440): a histogram of durations (measure 'a' arrival to first answer, 'f' first accept to first fill;
-- bin: floor(ln(microseconds) / ln(1.1)), -1 for 0) per broker user (username '*': all of them), and
-- 'c' the orders accepted (bin 0).
CREATE TABLE insights_answer_hist (
  width     smallint NOT NULL,
  client    text NOT NULL,
  exch      text NOT NULL,
  username  text NOT NULL,
  bucket    timestamptz NOT NULL,
  measure   char(1) NOT NULL,
  bin       integer NOT NULL,
  n         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (width, client, exch, bucket, username, measure, bin)
);

-- Refusals at intake (source 'r', by the refusal's time) and broker rejects (source 'j', by the
-- reject's time) per OrdRejReason.
CREATE TABLE insights_reasons (
  width    smallint NOT NULL,
  client   text NOT NULL,
  exch     text NOT NULL,
  bucket   timestamptz NOT NULL,
  source   char(1) NOT NULL,
  reason   integer NOT NULL,
  n        integer NOT NULL DEFAULT 0,
  PRIMARY KEY (width, client, exch, bucket, source, reason)
);

-- The desk's fills (client '*' only; widths 60 and 1440) per bucket of the fill on their contract (a
-- spread's on its legs' contracts): lots, lots times price where the price is known (the notional
-- before the contract's size), and how many.
CREATE TABLE insights_fills (
  width    smallint NOT NULL,
  client   text NOT NULL,
  exch     text NOT NULL,
  bucket   timestamptz NOT NULL,
  symbol   text NOT NULL,
  month    text NOT NULL,
  lots     numeric NOT NULL DEFAULT 0,
  lots_px  numeric NOT NULL DEFAULT 0,
  fills    integer NOT NULL DEFAULT 0,
  PRIMARY KEY (width, client, exch, bucket, symbol, month)
);
`;
