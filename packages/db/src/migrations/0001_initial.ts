// The first schema: every entity of both specification documents. Forward-only: never edit a
// migration that has shipped; add a new one.
export default /* sql */ `
-- Facts about this database itself (seed version, instance id).
CREATE TABLE app_meta (
  key         text PRIMARY KEY,
  value       text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- ------------------------------------------------------------------------------------------------
-- Organisation: brokers, their contacts, users and sign-in sessions

CREATE TABLE broker_information (
  id                  serial PRIMARY KEY,
  company_name        text NOT NULL,
  branch_type         text NOT NULL DEFAULT 'branch' CHECK (branch_type IN ('parent', 'branch', 'subsidiary')),
  parent_company_id   integer REFERENCES broker_information (id) ON DELETE SET NULL,
  address_line1       text,
  address_line2       text,
  city                text,
  state_province      text,
  postal_code         text,
  country             text,
  lei                 varchar(20),
  party_type          integer NOT NULL DEFAULT 1,
  party_id            text,
  party_id_source     text NOT NULL DEFAULT 'PROPRIETARY' CHECK (party_id_source IN ('BIC', 'LEI', 'PROPRIETARY', 'MIC', 'ISITC')),
  clearing_firm_name  text,
  clearing_firm_id    text,
  regulatory_id       text,
  is_active           boolean NOT NULL DEFAULT true,
  notes               text,
  company_logo        text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (parent_company_id IS NULL OR parent_company_id <> id)
);
CREATE UNIQUE INDEX broker_information_company_name_key ON broker_information (lower(company_name));

CREATE TABLE broker_contacts (
  id                  serial PRIMARY KEY,
  broker_id           integer NOT NULL REFERENCES broker_information (id) ON DELETE CASCADE,
  contact_type        text NOT NULL DEFAULT 'business' CHECK (contact_type IN ('business', 'trading_desk', 'backoffice', 'it_support')),
  contact_name        text NOT NULL,
  title               text,
  department          text,
  email               text,
  phone_primary       text,
  phone_mobile        text,
  phone_direct        text,
  is_primary          boolean NOT NULL DEFAULT false,
  is_emergency        boolean NOT NULL DEFAULT false,
  availability_hours  text NOT NULL DEFAULT '09:00-17:00',
  timezone            text NOT NULL DEFAULT 'Asia/Singapore',
  is_active           boolean NOT NULL DEFAULT true,
  notes               text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NOT NULL OR phone_primary IS NOT NULL)
);
CREATE INDEX broker_contacts_broker_idx ON broker_contacts (broker_id);

CREATE TABLE users (
  user_id                 serial PRIMARY KEY,
  username                text NOT NULL,
  email                   text,
  first_name              text,
  last_name               text,
  whatsapp_number         text,
  password_hash           text NOT NULL,
  role                    text NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'broker', 'viewer', 'user')),
  user_type               text NOT NULL DEFAULT 'broker' CHECK (user_type IN ('client', 'broker', 'admin', 'system')),
  is_active               boolean NOT NULL DEFAULT true,
  last_login              timestamptz,
  broker_branch_id        integer REFERENCES broker_information (id) ON DELETE SET NULL,
  trader_id               text,
  trader_license          text,
  trader_full_name        text,
  trader_party_id_source  text CHECK (trader_party_id_source IN ('PROPRIETARY', 'LICENSE', 'REGULATORY', 'EXCHANGE')),
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

-- A sign-in session. Only the SHA-256 of the bearer token is stored, so a copy of the database
-- cannot be used to sign in.
CREATE TABLE auth_sessions (
  id            bigserial PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE,
  user_id       integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  ip            text,
  user_agent    text
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);
CREATE INDEX auth_sessions_expires_idx ON auth_sessions (expires_at);

-- Every sign-in attempt, kept for compliance and used to rate-limit failures across all nodes.
CREATE TABLE login_attempts (
  id          bigserial PRIMARY KEY,
  username    text NOT NULL,
  ip          text NOT NULL,
  succeeded   boolean NOT NULL,
  reason      text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_username_idx ON login_attempts (lower(username), created_at);
CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, created_at);

-- ------------------------------------------------------------------------------------------------
-- Reference data: securities and the FIX dictionary

CREATE TABLE security_master (
  id               serial PRIMARY KEY,
  symbol           text NOT NULL,
  instrument_name  text NOT NULL,
  description      text,
  instrument_type  text NOT NULL DEFAULT 'Commodities' CHECK (instrument_type IN ('Commodities', 'Equities', 'FX', 'Bonds', 'Derivatives')),
  asset_class      text NOT NULL DEFAULT 'FUTURES',
  is_active        boolean NOT NULL DEFAULT true,
  price_tick_size  numeric NOT NULL DEFAULT 0.01 CHECK (price_tick_size > 0),
  qty_tick_size    numeric NOT NULL DEFAULT 1 CHECK (qty_tick_size > 0),
  settlement_days  integer NOT NULL DEFAULT 0 CHECK (settlement_days >= 0),
  contract_size    numeric,
  contract_unit    text,
  series_months    integer,
  currency         char(3) NOT NULL DEFAULT 'USD',
  trading_hours    text,
  exchange         text,
  exchange_mics    text NOT NULL DEFAULT 'SGX,EEX',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX security_master_symbol_key ON security_master (upper(symbol));

CREATE TABLE fix_fields (
  field_number  integer PRIMARY KEY,
  field_name    text NOT NULL UNIQUE,
  field_type    text NOT NULL,
  description   text,
  valid_values  jsonb
);

CREATE TABLE fix_enums (
  field_number  integer NOT NULL REFERENCES fix_fields (field_number) ON DELETE CASCADE,
  enum_value    text NOT NULL,
  description   text NOT NULL,
  PRIMARY KEY (field_number, enum_value)
);

CREATE TABLE fix_message_types (
  msg_type  text PRIMARY KEY,
  msg_name  text NOT NULL UNIQUE,
  category  text NOT NULL CHECK (category IN ('admin', 'app'))
);

-- Components and repeating groups of the dictionary (Parties, InstrmtLegGrp ...).
CREATE TABLE component_blocks (
  id                  serial PRIMARY KEY,
  block_name          text NOT NULL UNIQUE,
  description         text,
  reference_url       text,
  -- For a repeating group: its NumInGroup field (453 for Parties); null for a plain component.
  group_field_number  integer REFERENCES fix_fields (field_number)
);

CREATE TABLE component_block_fields (
  block_id        integer NOT NULL REFERENCES component_blocks (id) ON DELETE CASCADE,
  field_number    integer NOT NULL REFERENCES fix_fields (field_number),
  field_position  integer NOT NULL,
  is_mandatory    boolean NOT NULL DEFAULT false,
  PRIMARY KEY (block_id, field_number)
);

-- The fields we promise per message type (and per ExecType for execution reports): the FIX
-- specification page and the client spec document read them; execution reports carry them.
CREATE TABLE fix_message_specs (
  id                  serial PRIMARY KEY,
  msg_type            text NOT NULL,
  msg_name            text,
  fix_version         text NOT NULL DEFAULT '4.4',
  exec_type           text,
  field_number        integer NOT NULL REFERENCES fix_fields (field_number),
  field_position      integer,
  is_mandatory        boolean NOT NULL DEFAULT false,
  description         text,
  component_block_id  integer REFERENCES component_blocks (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((msg_type = '8') = (exec_type IS NOT NULL))
);
CREATE UNIQUE INDEX fix_message_specs_key ON fix_message_specs (msg_type, coalesce(exec_type, ''), field_number);

-- ------------------------------------------------------------------------------------------------
-- Clients: connectors (one FIX session each), their sessions, capabilities and field defaults

CREATE TABLE client_connectors (
  id                      serial PRIMARY KEY,
  comp_id                 text NOT NULL UNIQUE CHECK (length(comp_id) BETWEEN 1 AND 64),
  execution_id_prefix     varchar(3) NOT NULL UNIQUE CHECK (length(execution_id_prefix) >= 1),
  target_comp_id          text NOT NULL,
  fix_version             text NOT NULL DEFAULT 'FIX.4.4' CHECK (fix_version IN ('FIX.4.2', 'FIX.4.4', 'FIX.5.0', 'FIXT.1.1')),
  broker_id               integer REFERENCES broker_information (id) ON DELETE SET NULL,
  client_name             text,
  client_contact          text,
  client_email            text,
  client_phone            text,
  client_lei              varchar(20),
  company_website         text,
  company_name            text,
  logo_url                text,
  is_active               boolean NOT NULL DEFAULT true,
  test_port               integer CHECK (test_port BETWEEN 1 AND 65535),
  host                    text,
  port                    integer NOT NULL DEFAULT 9876 CHECK (port BETWEEN 1 AND 65535),
  timeout                 integer NOT NULL DEFAULT 10000,
  sessiontimeout          integer NOT NULL DEFAULT 10000,
  protocol                text NOT NULL DEFAULT 'ascii' CHECK (protocol IN ('ascii', 'binary')),
  dictionary              text NOT NULL DEFAULT 'repo44' CHECK (dictionary IN ('repo44', 'fixt11', 'custom')),
  fix_username            text,
  fix_password            text,
  heartbeatint            integer NOT NULL DEFAULT 30 CHECK (heartbeatint BETWEEN 1 AND 3600),
  targetsubid             text DEFAULT 'fix',
  encryptmethod           integer NOT NULL DEFAULT 0 CHECK (encryptmethod IN (0, 1, 2, 3)),
  reset_frequency         text NOT NULL DEFAULT 'DAILY' CHECK (reset_frequency IN ('DAILY', 'WEEKLY', 'MONTHLY', 'NEVER')),
  start_time              time NOT NULL DEFAULT '09:00:00',
  end_time                time NOT NULL DEFAULT '17:00:00',
  trading_days            text NOT NULL DEFAULT 'M,T,W,T,F',
  timezone                text NOT NULL DEFAULT 'Asia/Singapore',
  max_orders_per_second   integer NOT NULL DEFAULT 100 CHECK (max_orders_per_second >= 1),
  alert_email             text,
  enabletrace             boolean NOT NULL DEFAULT false,
  tls_key                 text,
  tls_cert                text,
  tls_ca                  text,
  tls_expires_at          timestamptz,
  notes                   text,
  whitelisted_ips         text,
  receive_notifications   boolean NOT NULL DEFAULT false,
  whatsapp_notifications  boolean NOT NULL DEFAULT false,
  trading_enabled         boolean NOT NULL DEFAULT true,
  risk_check_enabled      boolean NOT NULL DEFAULT true,
  resetseqnumflag         boolean NOT NULL DEFAULT false,
  resetseqnums            boolean NOT NULL DEFAULT false,
  useresetseqnums         boolean NOT NULL DEFAULT false,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);

-- One row per FIX session connection (logon to logout) for the Client Sessions screen.
CREATE TABLE client_sessions (
  id                 bigserial PRIMARY KEY,
  comp_id            text NOT NULL REFERENCES client_connectors (comp_id) ON UPDATE CASCADE ON DELETE CASCADE,
  session_start      timestamptz NOT NULL,
  session_end        timestamptz,
  disconnect_reason  text,
  messages_sent      integer NOT NULL DEFAULT 0 CHECK (messages_sent >= 0),
  messages_received  integer NOT NULL DEFAULT 0 CHECK (messages_received >= 0),
  orders_processed   integer NOT NULL DEFAULT 0 CHECK (orders_processed >= 0),
  remote_address     text,
  node_id            text,
  CHECK (session_end IS NULL OR session_end >= session_start)
);
CREATE INDEX client_sessions_comp_idx ON client_sessions (comp_id, session_start DESC);

CREATE TABLE client_capabilities (
  id                   serial PRIMARY KEY,
  clientconnectors_id  integer NOT NULL REFERENCES client_connectors (id) ON DELETE CASCADE,
  -- null means "All Securities"
  security_master_id   integer REFERENCES security_master (id) ON DELETE CASCADE,
  client_symbol        text,
  client_symbol_text   text,
  asset_class          text NOT NULL CHECK (asset_class IN ('FUTURES', 'EQUITIES', 'FX', 'OPTIONS', 'COMMODITIES', 'CRYPTO', 'BONDS')),
  exchange             text,
  is_enabled           boolean NOT NULL DEFAULT true,
  can_buy              boolean NOT NULL DEFAULT true,
  can_sell             boolean NOT NULL DEFAULT true,
  can_short            boolean NOT NULL DEFAULT false,
  max_order_qty        numeric CHECK (max_order_qty IS NULL OR max_order_qty > 0),
  min_order_qty        numeric CHECK (min_order_qty IS NULL OR min_order_qty >= 0),
  max_position_long    numeric,
  max_position_short   numeric,
  market_identifier    text,
  additional_params    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (min_order_qty IS NULL OR max_order_qty IS NULL OR min_order_qty <= max_order_qty)
);
CREATE UNIQUE INDEX client_capabilities_key ON client_capabilities (clientconnectors_id, coalesce(security_master_id, 0), coalesce(exchange, ''));

-- Per-client default values written into outgoing messages (%COMP_ID% etc. substituted).
CREATE TABLE fix_client_defaults (
  default_id           serial PRIMARY KEY,
  client_connector_id  integer NOT NULL REFERENCES client_connectors (id) ON DELETE CASCADE,
  msg_type             text NOT NULL,
  exec_type            text,
  tag                  integer NOT NULL REFERENCES fix_fields (field_number),
  default_value        text NOT NULL,
  notes                text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX fix_client_defaults_key ON fix_client_defaults (client_connector_id, msg_type, coalesce(exec_type, ''), tag);

-- Instances of a repeating group (e.g. two Parties entries: Entering Firm, Order Origination Trader).
CREATE TABLE fix_client_group_instances (
  id                     serial PRIMARY KEY,
  client_connector_id    integer NOT NULL REFERENCES client_connectors (id) ON DELETE CASCADE,
  msg_type               text NOT NULL,
  exec_type              text,
  component_block_id     integer NOT NULL REFERENCES component_blocks (id) ON DELETE CASCADE,
  group_instance_number  integer NOT NULL CHECK (group_instance_number >= 1),
  created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX fix_client_group_instances_key
  ON fix_client_group_instances (client_connector_id, msg_type, coalesce(exec_type, ''), component_block_id, group_instance_number);

CREATE TABLE fix_client_group_fields (
  instance_id    integer NOT NULL REFERENCES fix_client_group_instances (id) ON DELETE CASCADE,
  tag            integer NOT NULL REFERENCES fix_fields (field_number),
  default_value  text NOT NULL,
  notes          text,
  PRIMARY KEY (instance_id, tag)
);

-- ------------------------------------------------------------------------------------------------
-- FIX sessions: sequence numbers and every message in and out

-- The engine's durable session state. store_epoch grows at each sequence reset so that a resend
-- reads only the messages of the current numbering.
CREATE TABLE fix_session_state (
  begin_string       text NOT NULL,
  sender_comp_id     text NOT NULL,
  target_comp_id     text NOT NULL,
  next_sender_seq    integer NOT NULL DEFAULT 1 CHECK (next_sender_seq >= 1),
  next_target_seq    integer NOT NULL DEFAULT 1 CHECK (next_target_seq >= 1),
  store_epoch        integer NOT NULL DEFAULT 0,
  creation_time      timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  -- live status, maintained by the node that owns the session
  owner_node         text,
  is_connected       boolean NOT NULL DEFAULT false,
  connected_at       timestamptz,
  PRIMARY KEY (begin_string, sender_comp_id, target_comp_id)
);

-- Every FIX message, raw, as sent (TX) or received (RX): the compliance record and the resend store.
CREATE TABLE fix_messages (
  id               bigserial PRIMARY KEY,
  begin_string     text NOT NULL,
  sender_comp_id   text NOT NULL,
  target_comp_id   text NOT NULL,
  store_epoch      integer NOT NULL DEFAULT 0,
  direction        char(2) NOT NULL CHECK (direction IN ('TX', 'RX')),
  msg_seq_num      integer NOT NULL,
  msg_type         text NOT NULL,
  poss_dup         boolean NOT NULL DEFAULT false,
  clordid          text,
  brokerorderid    text,
  sending_time     timestamptz,
  raw_fix          text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
-- resend lookups: the outbound messages of one session and numbering, by sequence number
CREATE INDEX fix_messages_resend_idx ON fix_messages (sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num);
CREATE INDEX fix_messages_created_idx ON fix_messages (created_at);
CREATE INDEX fix_messages_clordid_idx ON fix_messages (clordid) WHERE clordid IS NOT NULL;
CREATE INDEX fix_messages_brokerorderid_idx ON fix_messages (brokerorderid) WHERE brokerorderid IS NOT NULL;

-- ------------------------------------------------------------------------------------------------
-- Orders

CREATE SEQUENCE broker_order_seq;

CREATE TABLE orders (
  id                   bigserial PRIMARY KEY,
  brokerorderid        text NOT NULL UNIQUE,
  clordid              text NOT NULL,
  origclordid          text,
  client_connector_id  integer NOT NULL REFERENCES client_connectors (id),
  sendercompid         text NOT NULL,
  targetcompid         text NOT NULL,
  -- the client's trading day (in the connector's time zone) on which the ClOrdID was received
  session_date         date NOT NULL,
  msg_type             text NOT NULL CHECK (msg_type IN ('D', 'AB')),
  symbol               text NOT NULL,
  security_type        text,
  maturity_month_year  text,
  side                 char(1) NOT NULL CHECK (side IN ('1', '2')),
  ordtype              char(1) NOT NULL CHECK (ordtype IN ('1', '2')),
  price                numeric,
  orderqty             numeric NOT NULL CHECK (orderqty > 0),
  timeinforce          char(1) NOT NULL DEFAULT '0',
  exchange             text,
  currency             char(3),
  account              text,
  text                 text,
  ordstatus            char(1) NOT NULL DEFAULT 'A',
  cumqty               numeric NOT NULL DEFAULT 0 CHECK (cumqty >= 0),
  leavesqty            numeric NOT NULL CHECK (leavesqty >= 0),
  avgpx                numeric NOT NULL DEFAULT 0,
  lastqty              numeric,
  lastpx               numeric,
  transacttime         timestamptz NOT NULL,
  accepted_by          text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (cumqty + leavesqty <= orderqty)
);
CREATE UNIQUE INDEX orders_clordid_per_day_key ON orders (sendercompid, session_date, clordid);
CREATE INDEX orders_created_idx ON orders (created_at DESC);
CREATE INDEX orders_open_idx ON orders (id) WHERE ordstatus IN ('A', '0', '1', '6', 'E');
CREATE INDEX orders_symbol_idx ON orders (symbol);
CREATE INDEX orders_sender_idx ON orders (sendercompid, created_at DESC);

CREATE TABLE order_legs (
  id                       bigserial PRIMARY KEY,
  order_id                 bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  leg_index                integer NOT NULL CHECK (leg_index >= 0),
  leg_symbol               text NOT NULL,
  leg_security_type        text,
  leg_maturity_month_year  text,
  leg_side                 char(1) NOT NULL CHECK (leg_side IN ('1', '2')),
  leg_ratio_qty            numeric NOT NULL DEFAULT 1 CHECK (leg_ratio_qty > 0),
  leg_price                numeric,
  leg_cumqty               numeric NOT NULL DEFAULT 0 CHECK (leg_cumqty >= 0),
  leg_avgpx                numeric NOT NULL DEFAULT 0,
  UNIQUE (order_id, leg_index)
);

CREATE TABLE order_parties (
  id               bigserial PRIMARY KEY,
  order_id         bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  -- null for order-level parties (453); the leg's index for nested leg parties (539)
  leg_index        integer,
  position         integer NOT NULL,
  party_id         text NOT NULL,
  party_id_source  text,
  party_role       integer NOT NULL
);
CREATE INDEX order_parties_order_idx ON order_parties (order_id);

-- Cancel (F) and cancel/replace (G) requests from the client, awaiting the broker's decision.
CREATE TABLE order_requests (
  id            bigserial PRIMARY KEY,
  order_id      bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  request_type  char(1) NOT NULL CHECK (request_type IN ('F', 'G')),
  clordid       text NOT NULL,
  origclordid   text NOT NULL,
  new_orderqty  numeric,
  new_price     numeric,
  new_ordtype   char(1),
  text          text,
  status        text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'CONFIRMED', 'REFUSED')),
  decided_by    text,
  decided_at    timestamptz,
  decision_text text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_requests_order_idx ON order_requests (order_id);
CREATE UNIQUE INDEX order_requests_one_pending ON order_requests (order_id) WHERE status = 'PENDING';

CREATE TABLE execution_reports (
  id              bigserial PRIMARY KEY,
  order_id        bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  execid          text NOT NULL UNIQUE,
  clordid         text NOT NULL,
  origclordid     text,
  orderid         text NOT NULL,
  exectype        char(1) NOT NULL,
  ordstatus       char(1) NOT NULL,
  side            char(1),
  symbol          text,
  orderqty        numeric,
  price           numeric,
  lastqty         numeric,
  lastpx          numeric,
  cumqty          numeric NOT NULL DEFAULT 0,
  avgpx           numeric NOT NULL DEFAULT 0,
  leavesqty       numeric NOT NULL DEFAULT 0,
  leg_index       integer,
  ordrejreason    integer,
  text            text,
  transacttime    timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX execution_reports_order_idx ON execution_reports (order_id, id);

CREATE TABLE order_actions (
  id             bigserial PRIMARY KEY,
  order_id       bigint REFERENCES orders (id) ON DELETE SET NULL,
  brokerorderid  text,
  clordid        text,
  sendercompid   text,
  symbol         text,
  side           char(1),
  orderqty       numeric,
  price          numeric,
  action_type    text NOT NULL CHECK (action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL', 'DONE_FOR_DAY', 'CANCEL',
                                                      'CANCEL_CONFIRM', 'CANCEL_REFUSE', 'REPLACE_CONFIRM', 'REPLACE_REFUSE')),
  user_id        text NOT NULL,
  user_ref       integer REFERENCES users (user_id) ON DELETE SET NULL,
  notes          text,
  action_data    jsonb NOT NULL DEFAULT '{}'::jsonb,
  fill_qty       numeric,
  fill_price     numeric,
  leg_index      integer,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_actions_created_idx ON order_actions (created_at DESC);
CREATE INDEX order_actions_order_idx ON order_actions (order_id);

-- Our own fills: the reference for the price-sanity check and the axes board.
CREATE TABLE trade_history (
  id                   bigserial PRIMARY KEY,
  order_id             bigint REFERENCES orders (id) ON DELETE SET NULL,
  execution_report_id  bigint REFERENCES execution_reports (id) ON DELETE SET NULL,
  symbol               text NOT NULL,
  -- 'outright', or the multileg kind; and the contract label (maturity or strategy)
  type                 text NOT NULL,
  contract             text NOT NULL,
  securityid           text,
  side                 char(1),
  price                numeric NOT NULL,
  quantity             numeric NOT NULL CHECK (quantity > 0),
  executed_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trade_history_latest_idx ON trade_history (symbol, type, contract, executed_at DESC);

-- ------------------------------------------------------------------------------------------------
-- Service health

CREATE TABLE service_registry (
  service_name  text PRIMARY KEY,
  service_type  text NOT NULL CHECK (service_type IN ('database', 'queue', 'router', 'api', 'acceptor', 'monitor', 'frontend')),
  description   text,
  is_critical   boolean NOT NULL DEFAULT false,
  -- a heartbeat older than this marks the service stale
  stale_after_ms integer NOT NULL DEFAULT 60000
);

CREATE TABLE service_heartbeats (
  id                bigserial PRIMARY KEY,
  service_name      text NOT NULL REFERENCES service_registry (service_name) ON DELETE CASCADE,
  node_id           text,
  status            text NOT NULL,
  response_time_ms  integer,
  metadata          jsonb NOT NULL DEFAULT '{}'::jsonb,
  timestamp         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX service_heartbeats_latest_idx ON service_heartbeats (service_name, timestamp DESC);
`;
