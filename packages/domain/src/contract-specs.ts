/** The demo contract specifications and which contract months are listed (spec 001 §3, §9). */
import { compareYearMonth, currentYearMonth, parseMaturity } from './maturities';

// ───────────────────────────── demo contract specifications ─────────────────────────────

/** A row of the security master as the seed writes it (spec 001 §3 Security, §9 contract specs). */
export interface ContractSpec {
  symbol: string;
  instrument_name: string;
  description: string;
  instrument_type: 'Commodities' | 'Derivatives';
  asset_class: 'FUTURES';
  price_tick_size: string;
  qty_tick_size: string;
  contract_size: string;
  contract_unit: string;
  /** How many consecutive contract months are listed from the current one. */
  series_months: number;
  currency: string;
  exchange_mics: string;
}

const timecharter = (symbol: string, instrument_name: string, description: string): ContractSpec => ({
  symbol,
  instrument_name,
  description,
  instrument_type: 'Commodities',
  asset_class: 'FUTURES',
  price_tick_size: '1',
  qty_tick_size: '1',
  contract_size: '1',
  contract_unit: 'day ($/day)',
  series_months: 84,
  currency: 'USD',
  exchange_mics: 'SGX,EEX',
});

const voyage = (symbol: string, instrument_name: string, description: string): ContractSpec => ({
  symbol,
  instrument_name,
  description,
  instrument_type: 'Commodities',
  asset_class: 'FUTURES',
  price_tick_size: '0.01',
  qty_tick_size: '1',
  contract_size: '1000',
  contract_unit: 'tonnes ($/t)',
  series_months: 36,
  currency: 'USD',
  exchange_mics: 'SGX,EEX',
});

/**
 * The freight contracts of spec 001 §9: timecharter averages trade in days at whole dollars a day over 84
 * series months; voyage routes in 1,000-tonne lots at a cent a tonne over 36 months.
 */
export const FREIGHT_CONTRACT_SPECS: readonly ContractSpec[] = [
  timecharter('C5TC', 'Capesize 5TC', 'Capesize timecharter average of five routes'),
  timecharter('P4TC', 'Panamax 4TC', 'Panamax timecharter average of four routes'),
  timecharter('S10TC', 'Supramax 10TC', 'Supramax timecharter average of ten routes'),
  voyage('C3', 'Capesize C3', 'Iron ore voyage Tubarao to Qingdao'),
  voyage('C5', 'Capesize C5', 'Iron ore voyage West Australia to Qingdao'),
  voyage('C7', 'Capesize C7', 'Coal voyage Bolivar to Rotterdam'),
];

/** Whether a contract month is listed: not before the current month and within `seriesMonths` of it. */
export function contractMonthStatus(
  maturity: string,
  seriesMonths: number | null | undefined,
  now: Date,
  timeZone = 'UTC',
): 'listed' | 'expired' | 'beyondSeries' | 'invalid' {
  const ym = parseMaturity(maturity);
  if (!ym) return 'invalid';
  const offset = compareYearMonth(ym, currentYearMonth(now, timeZone));
  if (offset < 0) return 'expired';
  if (seriesMonths !== null && seriesMonths !== undefined && seriesMonths > 0 && offset >= seriesMonths) return 'beyondSeries';
  return 'listed';
}
