/**
 * Display formats and colour tokens, defined once for the web app, the exports and the tests.
 *
 * Numbers are formatted from their exact decimal digits (never through a binary float), rounding ties
 * away from zero as people expect on screen. Colours are semantic tokens; the web app maps each token to
 * its theme.
 */
import { Decimal, type DecimalInput } from './decimal';
import { maturityLabel } from './maturities';
import { OrdStatus, Side, type SideCode } from './codes';

// ───────────────────────────── numbers ─────────────────────────────

function groupThousands(intDigits: string): string {
  return intDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A decimal with thousands separators and between `minDecimals` and `maxDecimals` places. Text that is
 * not a number is returned as it was (the Axes board shows raw values it cannot format); null/undefined → ''.
 */
export function formatDecimal(value: DecimalInput | null | undefined, minDecimals: number, maxDecimals = minDecimals): string {
  if (value === null || value === undefined) return '';
  const d = Decimal.tryFrom(typeof value === 'string' ? value.trim() : value);
  if (!d) return String(value);
  let text = d.toFixed(maxDecimals, 'HALF_UP');
  if (maxDecimals > minDecimals) {
    const [intPart, frac = ''] = text.split('.');
    const trimmed = frac.replace(/0+$/, '').padEnd(minDecimals, '0');
    text = trimmed ? `${intPart}.${trimmed}` : intPart!;
  }
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const [intPart, frac] = body.split('.');
  const shown = groupThousands(intPart!) + (frac !== undefined ? `.${frac}` : '');
  // "-0.00" after rounding a tiny negative is just zero
  return negative && /[1-9]/.test(shown) ? `-${shown}` : shown;
}

/** Prices in grids and panels: 2 decimals with thousands separators (27,000.00). */
export function formatPrice(value: DecimalInput | null | undefined): string {
  return formatDecimal(value, 2);
}

/** The broker blotter's price: at least 2 and up to 6 decimals (27,000.125 stays visible). */
export function formatBlotterPrice(value: DecimalInput | null | undefined): string {
  return formatDecimal(value, 2, 6);
}

/**
 * An average price with the decimals its order's price is shown with (24,516.67 beside a
 * price of 24,500.00, not 24,516.666667). Without a price (a market order) as a blotter price.
 */
export function formatAveragePrice(avgPx: DecimalInput | null | undefined, price: DecimalInput | null | undefined): string {
  if (price === null || price === undefined || price === '') return formatBlotterPrice(avgPx);
  const shown = formatBlotterPrice(price);
  const decimals = shown.includes('.') ? shown.length - shown.indexOf('.') - 1 : 0;
  return formatDecimal(avgPx, decimals);
}

/** An order's price, or MKT when it has none (market orders). */
export function formatOrderPrice(value: DecimalInput | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'MKT';
  return formatPrice(value);
}

/** Quantities: no decimals, thousands separators (1,000). */
export function formatQuantity(value: DecimalInput | null | undefined): string {
  return formatDecimal(value, 0);
}

/** 'Filled 4/10' style progress: cum/order with quantity formatting. */
export function formatFilledProgress(cumQty: DecimalInput | null | undefined, orderQty: DecimalInput | null | undefined): string {
  return `${formatQuantity(cumQty ?? 0)}/${formatQuantity(orderQty ?? 0)}`;
}

/** A percentage with one decimal: '12.5%'. */
export function formatPercent(value: DecimalInput | null | undefined, decimals = 1): string {
  if (value === null || value === undefined) return '';
  return `${formatDecimal(value, decimals)}%`;
}

/** 6-digit month-years shown as 'Mon-YY' (spec 001 §9); anything else as it was. */
export function formatMaturity(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return maturityLabel(value) ?? String(value);
}

/** Notes in the audit grid are cut at 30 characters; the full text is in a popup (spec 000 §2). */
const NOTES_TRUNCATE_LENGTH = 30;

export function truncateText(text: string | null | undefined, max = NOTES_TRUNCATE_LENGTH): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

// ───────────────────────────── time ─────────────────────────────

const FIX_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

/**
 * Reads what timestamps look like across the system: Date, epoch milliseconds, ISO 8601 text, FIX
 * UTCTimestamp 'YYYYMMDD-HH:MM:SS[.sss]'. Null when unreadable.
 */
export function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const text = value.trim();
  const fix = FIX_TIMESTAMP.exec(text);
  if (fix) {
    const ms = Number((fix[7] ?? '0').padEnd(3, '0').slice(0, 3));
    const d = new Date(Date.UTC(+fix[1]!, +fix[2]! - 1, +fix[3]!, +fix[4]!, +fix[5]!, +fix[6]!, ms));
    return Number.isNaN(d.getTime()) ? null : d;
  }
  // Only ISO-like text: Date.parse accepts many locale formats we do not want to guess at.
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface Parts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in an IANA time zone, as zero-padded digits. */
export function partsIn(date: Date, timeZone: string): Parts {
  if (timeZone === 'UTC') {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return {
      year: p(date.getUTCFullYear(), 4),
      month: p(date.getUTCMonth() + 1),
      day: p(date.getUTCDate()),
      hour: p(date.getUTCHours()),
      minute: p(date.getUTCMinutes()),
      second: p(date.getUTCSeconds()),
    };
  }
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partFormatters.set(timeZone, f);
  }
  const get = (type: string) => f.formatToParts(date).find((x) => x.type === type)?.value ?? '00';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

export interface TimeFormatOptions {
  /** IANA zone for display; UTC unless the screen chooses the desk's zone. */
  timeZone?: string;
}

/** 'YYYY-MM-DD HH:MM:SS'; unreadable text is returned as it was, absent values as ''. */
export function formatTimestamp(value: Date | string | number | null | undefined, options: TimeFormatOptions = {}): string {
  const d = toDate(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  const p = partsIn(d, options.timeZone ?? 'UTC');
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** 'YYYY-MM-DD' */
export function formatDate(value: Date | string | number | null | undefined, options: TimeFormatOptions = {}): string {
  const d = toDate(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  const p = partsIn(d, options.timeZone ?? 'UTC');
  return `${p.year}-${p.month}-${p.day}`;
}

/** 'HH:MM:SS' */
export function formatTime(value: Date | string | number | null | undefined, options: TimeFormatOptions = {}): string {
  const d = toDate(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  const p = partsIn(d, options.timeZone ?? 'UTC');
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** FIX UTCTimestamp 'YYYYMMDD-HH:MM:SS' (or with '.sss'), always UTC. */
export function formatFixTimestamp(date: Date, options: { millis?: boolean } = {}): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date');
  const p = partsIn(date, 'UTC');
  const base = `${p.year}${p.month}${p.day}-${p.hour}:${p.minute}:${p.second}`;
  return options.millis ? `${base}.${String(date.getUTCMilliseconds()).padStart(3, '0')}` : base;
}

/**
 * How long something has waited, to the second, as a clock reads: '0:07', '12:03', '1:02:03'
 * (the blotter's Age of a pending order). '' for nothing; a clock running ahead shows '0:00'.
 */
export function formatWaitingAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A pending order waiting this long is highlighted on the blotter (nothing waits unseen). */
export const PENDING_AGE_ALERT_MS = 60_000;

/** Service-status stale age as seconds, minutes or hours (spec 001 §9): '45s', '12m', '3h'. */
export function formatStaleAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h`;
}

// ───────────────────────────── colour tokens ─────────────────────────────

export type ColourToken = 'blue' | 'green' | 'red' | 'grey' | 'darkGrey' | 'lightGrey' | 'yellow' | 'orange' | 'purple' | 'teal' | 'pink';

export interface ColourStyle {
  colour: ColourToken;
  /**
   * 0-1 strength for cells shaded by progress (a partial fill at 40 % is green at 0.4). Absent means full.
   * A display value only.
   */
  intensity?: number;
  /** Row tints (buy faint green, sell faint red) are drawn faint rather than solid. */
  faint?: boolean;
}

function fillRatio(cumQty: DecimalInput | null | undefined, orderQty: DecimalInput | null | undefined): number {
  const cum = Decimal.tryFrom(cumQty);
  const total = Decimal.tryFrom(orderQty);
  if (!cum || !total || !total.isPositive() || cum.isNegative()) return 0;
  const ratio = cum.div(total, 2, 'HALF_UP');
  return Math.min(1, ratio.toNumber());
}

/**
 * The broker blotter's status cell (spec 000 §2): pending blue (the Accept button), Accepted blue, Partial
 * green shaded by fill ratio, Filled green, Done dark grey, Canceled and Rejected red. Statuses the spec
 * leaves open: pending cancel/replace orange (waiting on the desk), Expired dark grey, legacy Replaced grey.
 */
export function blotterStatusColour(
  ordStatus: string | null | undefined,
  progress: { cumQty?: DecimalInput | null; orderQty?: DecimalInput | null } = {},
): ColourStyle {
  switch (ordStatus) {
    case OrdStatus.PendingNew:
    case OrdStatus.New:
      return { colour: 'blue' };
    case OrdStatus.PartiallyFilled:
      return { colour: 'green', intensity: fillRatio(progress.cumQty, progress.orderQty) };
    case OrdStatus.Filled:
      return { colour: 'green' };
    case OrdStatus.DoneForDay:
    case 'F':
    case OrdStatus.Expired:
      return { colour: 'darkGrey' };
    case OrdStatus.Canceled:
    case OrdStatus.Rejected:
      return { colour: 'red' };
    case OrdStatus.PendingCancel:
    case OrdStatus.PendingReplace:
      return { colour: 'orange' };
    default:
      return { colour: 'grey' };
  }
}

/** The Accept button: blue, orange with 'Accepting...' while the call is in flight. */
export function acceptButtonColour(inFlight: boolean): ColourToken {
  return inFlight ? 'orange' : 'blue';
}
export const ACCEPT_BUTTON_TEXT = { idle: 'Accept', inFlight: 'Accepting...' } as const;

/**
 * ExecType colours (spec 000 §2): A yellow, 0 green, F blue, 3 grey, 4 and 8 red. Legacy fills (1, 2) as
 * trades; pending cancel/replace orange; everything else grey.
 */
export function execTypeColour(execType: string | null | undefined): ColourToken {
  switch (execType) {
    case 'A':
      return 'yellow';
    case '0':
      return 'green';
    case 'F':
    case '1':
    case '2':
      return 'blue';
    case '4':
    case '8':
      return 'red';
    case '6':
    case 'E':
      return 'orange';
    default:
      return 'grey';
  }
}

/** The client's FIX Client blotter (spec 001 §4): 0 blue, 1 orange, 2 green, 4 grey, 8 red, A light grey. */
export function clientStatusColour(ordStatus: string | null | undefined): ColourToken {
  switch (ordStatus) {
    case '0':
      return 'blue';
    case '1':
      return 'orange';
    case '2':
      return 'green';
    case '4':
      return 'grey';
    case '8':
      return 'red';
    case '3':
    case 'C':
      return 'darkGrey';
    case '6':
    case 'E':
      return 'orange';
    default:
      return 'lightGrey';
  }
}

/** Role badges: admin red, broker green, viewer blue, user (and anything unknown) grey. */
export function roleBadgeColour(role: string | null | undefined): ColourToken {
  switch ((role ?? '').toLowerCase()) {
    case 'admin':
      return 'red';
    case 'broker':
      return 'green';
    case 'viewer':
      return 'blue';
    default:
      return 'grey';
  }
}

/** Service type colours (spec 001 §9). */
export const SERVICE_TYPE_COLOURS: Readonly<Record<string, ColourToken>> = {
  database: 'blue',
  queue: 'purple',
  router: 'teal',
  api: 'green',
  acceptor: 'orange',
  monitor: 'yellow',
  frontend: 'pink',
  // This desk's services in the spec's families: the FIX acceptor is an acceptor; a client's FIX
  // session routes its orders in; the simulated clients are driven from the browser.
  'fix-acceptor': 'orange',
  'fix-session': 'teal',
  simulator: 'pink',
};

export function serviceTypeColour(type: string | null | undefined): ColourToken {
  return SERVICE_TYPE_COLOURS[(type ?? '').toLowerCase()] ?? 'grey';
}

/** Blotter rows: buys faint green, sells faint red. */
export function sideRowColour(side: SideCode | string | null | undefined): ColourStyle | null {
  if (side === Side.Buy) return { colour: 'green', faint: true };
  if (side === Side.Sell) return { colour: 'red', faint: true };
  return null;
}

/** FIX message audit direction: TX green, RX blue. */
export function fixDirectionColour(direction: string | null | undefined): ColourToken {
  return direction === 'TX' ? 'green' : direction === 'RX' ? 'blue' : 'grey';
}
