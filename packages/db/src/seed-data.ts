// Demo reference data written on first start. Fictitious firms and people; real contract
// specifications (spec 001 §9 for the freight contracts).
import { FREIGHT_CONTRACT_SPECS, type ContractSpec } from '@fixdesk/domain';

export interface DemoSecurity {
  symbol: string;
  instrument_name: string;
  description: string;
  instrument_type: 'Commodities' | 'Derivatives';
  asset_class: 'FUTURES';
  price_tick_size: string;
  qty_tick_size: string;
  contract_size: string;
  contract_unit: string;
  series_months: number;
  currency: string;
  exchange: string;
  exchange_mics: string;
  trading_hours: string;
}

/** The freight contracts come from the domain's table (spec 001 §9); the seed adds where they trade. */
const freight = (spec: ContractSpec): DemoSecurity => ({ ...spec, exchange: 'SGX', trading_hours: '08:00-19:00 SGT' });

export const DEMO_SECURITIES: DemoSecurity[] = [
  ...FREIGHT_CONTRACT_SPECS.map(freight),
  {
    symbol: 'FO380',
    instrument_name: 'Fuel Oil 380cst',
    description: 'Singapore 380cst fuel oil monthly average future',
    instrument_type: 'Commodities',
    asset_class: 'FUTURES',
    price_tick_size: '0.01',
    qty_tick_size: '1',
    contract_size: '100',
    contract_unit: 'tonnes ($/t)',
    series_months: 36,
    currency: 'USD',
    exchange: 'SGX',
    exchange_mics: 'SGX',
    trading_hours: '08:00-19:00 SGT',
  },
  {
    symbol: 'TTF',
    instrument_name: 'Dutch TTF Gas',
    description: 'Dutch TTF natural gas month future',
    instrument_type: 'Commodities',
    asset_class: 'FUTURES',
    price_tick_size: '0.005',
    qty_tick_size: '1',
    contract_size: '720',
    contract_unit: 'MWh (EUR/MWh)',
    series_months: 72,
    currency: 'EUR',
    exchange: 'EEX',
    exchange_mics: 'EEX',
    trading_hours: '08:00-18:00 CET',
  },
  {
    symbol: 'DEBM',
    instrument_name: 'German Power Base',
    description: 'German power baseload month future',
    instrument_type: 'Commodities',
    asset_class: 'FUTURES',
    price_tick_size: '0.01',
    qty_tick_size: '1',
    contract_size: '1',
    contract_unit: 'MW (EUR/MWh)',
    series_months: 72,
    currency: 'EUR',
    exchange: 'EEX',
    exchange_mics: 'EEX',
    trading_hours: '08:00-18:00 CET',
  },
];

export const DEMO_BROKER = {
  company_name: 'Meridian Freight Brokers Pte Ltd',
  address_line1: '8 Marina View, #30-01',
  city: 'Singapore',
  postal_code: '018960',
  country: 'SG',
  lei: '5493001KJTIIGC8Y1R12',
  party_type: 1,
  party_id: 'MERIDIAN',
  party_id_source: 'PROPRIETARY',
  regulatory_id: 'MAS-CMS100812',
  notes: 'Demo executing broker created on first start.',
  contacts: [
    {
      contact_type: 'trading_desk',
      contact_name: 'Freight Desk',
      title: 'Desk',
      email: 'desk@meridian.example',
      phone_primary: '+65 6000 1000',
      is_primary: true,
    },
    {
      contact_type: 'it_support',
      contact_name: 'FIX Support',
      title: 'Connectivity',
      email: 'fix@meridian.example',
      phone_primary: '+65 6000 1099',
      is_primary: false,
    },
  ],
};

/** Our acceptor's comp id: the TargetCompID our clients send to. */
const BROKER_COMP_ID = 'FIXDESK';

export const DEMO_CONNECTORS = [
  {
    comp_id: 'SGX_CLIENT_1',
    execution_id_prefix: 'SGX',
    target_comp_id: BROKER_COMP_ID,
    client_name: 'Straits Shipping Capital',
    client_contact: 'Mei Lin Tan',
    client_email: 'mei.tan@straits-shipping.example',
    client_phone: '+65 6100 2200',
    client_lei: '549300STRAITS000SG15',
    company_website: 'https://straits-shipping.example',
    company_name: 'Straits Shipping Capital Pte Ltd',
    test_port: 3333,
    timezone: 'Asia/Singapore',
    notes: 'Demo client connector (freight, SGX).',
  },
  {
    comp_id: 'EEX_CLIENT_1',
    execution_id_prefix: 'EEX',
    target_comp_id: BROKER_COMP_ID,
    client_name: 'Nordhafen Energy Trading',
    client_contact: 'Jonas Berger',
    client_email: 'jonas.berger@nordhafen.example',
    client_phone: '+49 40 5550 1200',
    client_lei: '529900NORDHAFEN00E87',
    company_website: 'https://nordhafen.example',
    company_name: 'Nordhafen Energy Trading GmbH',
    test_port: 3334,
    timezone: 'Europe/London',
    notes: 'Demo client connector (energy, EEX).',
  },
];

/** Services the status page lists; the server writes their heartbeats. */
export const SERVICES = [
  {
    name: 'database',
    type: 'database',
    description: 'System of record (PostgreSQL or embedded PGlite)',
    critical: true,
    staleAfterMs: 90_000,
  },
  { name: 'api', type: 'api', description: 'HTTP API and WebSocket fan-out', critical: true, staleAfterMs: 90_000 },
  { name: 'fix-acceptor', type: 'acceptor', description: 'FIX 4.4 acceptor for client sessions', critical: true, staleAfterMs: 90_000 },
  {
    name: 'test-client',
    type: 'router',
    description: 'FIX test-client service (simulated clients)',
    critical: false,
    staleAfterMs: 90_000,
  },
] as const;

/** Tags 1 = mandatory. The per-ExecType shape of our execution reports and what we require in orders. */
const ER_COMMON: [number, boolean][] = [
  [37, true],
  [11, true],
  [17, true],
  [150, true],
  [39, true],
  [55, true],
  [54, true],
  [38, true],
  [151, true],
  [14, true],
  [6, true],
  [60, true],
  [40, false],
  [44, false],
  [167, false],
  [200, false],
  [453, false],
];

export const MESSAGE_SPECS: { msg_type: string; msg_name: string; exec_type: string | null; fields: [number, boolean][] }[] = [
  {
    msg_type: 'D',
    msg_name: 'NewOrderSingle',
    exec_type: null,
    fields: [
      [11, true],
      [55, true],
      [54, true],
      [60, true],
      [38, true],
      [40, true],
      [44, false],
      [59, false],
      [167, true],
      [200, true],
      [100, false],
      [15, false],
      [58, false],
      [453, false],
    ],
  },
  {
    msg_type: 'AB',
    msg_name: 'NewOrderMultileg',
    exec_type: null,
    fields: [
      [11, true],
      [55, true],
      [54, true],
      [60, true],
      [38, true],
      [40, true],
      [44, false],
      [59, false],
      [167, true],
      [555, true],
      [600, true],
      [609, true],
      [610, true],
      [624, true],
      [623, true],
      [100, false],
      [58, false],
      [453, false],
    ],
  },
  {
    msg_type: 'F',
    msg_name: 'OrderCancelRequest',
    exec_type: null,
    fields: [
      [41, true],
      [11, true],
      [37, false],
      [55, true],
      [54, true],
      [60, true],
      [38, true],
    ],
  },
  {
    msg_type: 'G',
    msg_name: 'OrderCancelReplaceRequest',
    exec_type: null,
    fields: [
      [41, true],
      [11, true],
      [37, false],
      [55, true],
      [54, true],
      [60, true],
      [38, true],
      [40, true],
      [44, false],
    ],
  },
  {
    msg_type: 'H',
    msg_name: 'OrderStatusRequest',
    exec_type: null,
    fields: [
      [11, true],
      [37, false],
      [55, true],
      [54, true],
    ],
  },
  ...(['A', '0', '3', 'C'] as const).map((execType) => ({
    msg_type: '8',
    msg_name: 'ExecutionReport',
    exec_type: execType,
    fields: ER_COMMON,
  })),
  { msg_type: '8', msg_name: 'ExecutionReport', exec_type: 'F', fields: [...ER_COMMON, [32, true], [31, true]] },
  { msg_type: '8', msg_name: 'ExecutionReport', exec_type: '8', fields: [...ER_COMMON, [103, true], [58, true]] },
  ...(['4', '5', '6', 'E'] as const).map((execType) => ({
    msg_type: '8',
    msg_name: 'ExecutionReport',
    exec_type: execType,
    fields: [...ER_COMMON, [41, true]] as [number, boolean][],
  })),
  {
    msg_type: '9',
    msg_name: 'OrderCancelReject',
    exec_type: null,
    fields: [
      [37, true],
      [11, true],
      [41, true],
      [39, true],
      [434, true],
      [102, false],
      [58, false],
    ],
  },
];

/** Per-client defaults written into every execution report. */
export const FIELD_DEFAULTS = [
  { msg_type: '8', exec_type: null, tag: 1, default_value: '%COMP_ID%', notes: 'Account: the client comp id' },
];

/** The message types the demo clients' Parties defaults are for: our execution reports and their orders. */
export const PARTY_DEFAULT_MSG_TYPES = ['8', 'D', 'AB'] as const;

/** Parties instances: Entering Firm (7) and Order Origination Trader (11). */
export const PARTY_DEFAULTS = [
  {
    name: 'Entering Firm',
    fields: [
      { tag: 448, default_value: '%LEI%' },
      // FIX 4.4 has no LEI source code (N came with FIX 5.0 SP2): the LEI travels as a proprietary id.
      { tag: 447, default_value: 'D' },
      { tag: 452, default_value: '7' },
    ],
  },
  {
    name: 'Order Origination Trader',
    fields: [
      { tag: 448, default_value: '%CONTACT_NAME%' },
      { tag: 447, default_value: 'D' },
      { tag: 452, default_value: '11' },
    ],
  },
];
