import { badRequest, invalidField } from './errors';

/** A date or date-time from a query; a bare end date includes its whole day (to 23:59:59.999). */
function parseDateParam(value: string | undefined, field: string, endOfDay = false): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(bareDate ? `${value}T00:00:00.000Z` : value);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || year < 1970 || year > 9999) {
    throw invalidField(field, 'must be a date (YYYY-MM-DD) or an ISO date-time between 1970 and 9999');
  }
  if (bareDate && endOfDay) d.setUTCHours(23, 59, 59, 999);
  return d;
}

export interface DateRange {
  start: Date | undefined;
  end: Date | undefined;
}

/**
 * The date filter of a list query, named by its two parameters (`start`/`end` on the audit lists,
 * `from`/`to` on the orders): a bare end date includes its whole day. `requiredFor` names what needs
 * both ends (an export), refused 400 naming the missing one.
 */
export function dateRangeOf<S extends string, E extends string>(
  query: Partial<Record<S | E, string>>,
  [startParam, endParam]: readonly [S, E],
  requiredFor?: string,
): DateRange {
  const [start, end] = [query[startParam], query[endParam]];
  if (requiredFor && (!start || !end)) {
    throw badRequest(`Start and end dates are required for ${requiredFor}`, start ? endParam : startParam);
  }
  return { start: parseDateParam(start, startParam), end: parseDateParam(end, endParam, true) };
}
