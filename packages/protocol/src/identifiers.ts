import { z } from 'zod';

// Standard identifiers the admin forms take, checked the same way by the server and the forms.

/**
 * ISO 17442 Legal Entity Identifier: 18 letters or digits, then 2 check digits that make the whole,
 * read as a number (A=10 … Z=35), leave 1 modulo 97 (ISO 7064 MOD 97-10).
 */
function leiCheckDigitsValid(lei: string): boolean {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(lei)) return false;
  let rest = 0;
  for (const ch of lei) {
    for (const digit of String(Number.parseInt(ch, 36))) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

const LeiText = {
  shape: 'must be a 20-character LEI (18 letters or digits, then 2 check digits)',
  checkDigits: 'has check digits that do not match (ISO 17442): not a valid LEI',
} as const;

/** An optional LEI ('' or null: none), upper-cased, its shape and check digits verified. */
export const optionalLei = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim().toUpperCase() : v),
  z
    .string({ error: LeiText.shape })
    .regex(/^[A-Z0-9]{18}[0-9]{2}$/, LeiText.shape)
    .refine(leiCheckDigitsValid, LeiText.checkDigits)
    .nullable()
    .optional(),
);

/** ISO 10383 Market Identifier Code: four letters or digits (XSES, XEEE, IFEU). */
export const MIC_TEXT = 'must be a four-character MIC (ISO 10383) such as XSES';

/**
 * ISO 4217 currency codes in use (list one, 2025), with the funds codes and precious metals a futures
 * desk may price in.
 */
export const ISO_4217_CODES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
    'GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW ' +
    'KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN ' +
    'NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD ' +
    'SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW ' +
    'UZS VED VES VND VUV WST XAF XAG XAU XCD XCG XDR XOF XPD XPF XPT YER ZAR ZMW ZWG ANG'
  ).split(' '),
);

export const CURRENCY_TEXT = 'must be an ISO 4217 currency code such as USD';
