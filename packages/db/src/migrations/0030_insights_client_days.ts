// Desk Insights rollups (docs/adr/0019, amendment 2):
// - the time-to-answer histograms are kept per client as well as for the whole desk (all users by hour
//   and day, each user by day), and the contracts' fills per client by day;
// - every rollup's key leads with the bucket, then the exchange and the client: a call reads one bucket's
//   rows of every chosen client in one look, where forty clients took forty.
// What was folded before holds the desk's histograms and fills only, so the rollups start again: the
// roll-up folds the history anew (its backfill, a chunk a step) and the calls read what it has not
// reached raw meanwhile, as after migration 28.
export default /* sql */ `
TRUNCATE insights_flow, insights_book, insights_order_qty, insights_answer_hist, insights_reasons, insights_fills;
UPDATE insights_rollup_state SET orders_horizon = '-infinity', action_id = 0, action_marks = '[]', folded_at = NULL;
ALTER TABLE insights_flow DROP CONSTRAINT insights_flow_pkey, ADD PRIMARY KEY (width, bucket, exch, client);
ALTER TABLE insights_book DROP CONSTRAINT insights_book_pkey, ADD PRIMARY KEY (width, bucket, exch, client);
ALTER TABLE insights_answer_hist DROP CONSTRAINT insights_answer_hist_pkey,
  ADD PRIMARY KEY (width, bucket, exch, client, username, measure, bin);
ALTER TABLE insights_reasons DROP CONSTRAINT insights_reasons_pkey, ADD PRIMARY KEY (width, bucket, exch, client, source, reason);
ALTER TABLE insights_fills DROP CONSTRAINT insights_fills_pkey, ADD PRIMARY KEY (width, bucket, exch, client, symbol, month);
`;
