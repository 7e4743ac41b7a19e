/**
 * Parses the PDF417 payload of a North American driving licence or ID card
 * (AAMVA DL/ID Card Design Standard, 2000-2020 versions): the header
 * `@\n\x1e\rANSI ` (or `AAMVA`), issuer number, versions and subfile
 * designators, then a DL or ID subfile of `\n`-separated elements, each a
 * three-letter id and its value. Dates are MMDDCCYY in the USA and CCYYMMDD
 * in Canada.
 */

export type Sex = "M" | "F" | "X";

export type AamvaRecord = {
  subfile: "DL" | "ID";
  /** Issuer identification number (IIN), e.g. 636014 for California. */
  issuer_id: string;
  aamva_version: number;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  /** ISO dates (YYYY-MM-DD). */
  date_of_birth: string | null;
  expiry_date: string | null;
  issue_date: string | null;
  document_number: string | null;
  /** Jurisdiction code, e.g. "CA". */
  state: string | null;
  country: "USA" | "CAN" | null;
  sex: Sex | null;
  /** Every element of the subfile by id, for what this type does not name. */
  elements: Record<string, string>;
};

/** The payload is not an AAMVA DL/ID record, or one of its values is malformed. */
export class AamvaFormatError extends Error {
  override name = "AamvaFormatError";
}

const HEADER = /^@\n\x1e\r(?:ANSI |AAMVA)(\d{6})(\d{2})(\d{2})?(\d{2})/;
const SUBFILE_DESIGNATOR = /^([A-Z]{2})(\d{4})(\d{4})/;
/** Values some jurisdictions print for an absent element. */
const ABSENT = new Set(["", "NONE", "UNAVL", "UNAVAILABLE", "N/A"]);

type Designator = { type: string; offset: number; length: number };

function parseHeader(text: string): { issuerId: string; version: number; designators: Designator[]; end: number } {
  const header = HEADER.exec(text);
  if (!header) throw new AamvaFormatError("Not an AAMVA DL/ID barcode: the header (@ LF RS CR ANSI) is missing");
  // Version 01 has no jurisdiction version field: the regex's optional group absorbs the difference.
  const [matched, issuerId, version, , entries] = header;
  const count = Number(entries);
  if (!Number.isInteger(count) || count < 1) throw new AamvaFormatError("AAMVA header lists no subfile");
  const designators: Designator[] = [];
  let cursor = matched.length;
  for (let i = 0; i < count; i++) {
    const designator = SUBFILE_DESIGNATOR.exec(text.slice(cursor, cursor + 10));
    if (!designator) throw new AamvaFormatError(`AAMVA subfile designator ${i + 1} of ${count} is malformed`);
    designators.push({ type: designator[1]!, offset: Number(designator[2]), length: Number(designator[3]) });
    cursor += 10;
  }
  return { issuerId: issuerId!, version: Number(version), designators, end: cursor };
}

/**
 * The DL or ID subfile body (after its two-letter type). Uses the designator's
 * offset when it points at the subfile, as the standard says; some issuers
 * get offsets wrong, so otherwise the subfile is looked for right after the
 * designators.
 */
function subfileBody(text: string, designators: Designator[], headerEnd: number): { type: "DL" | "ID"; body: string } {
  const designator = designators.find((d) => d.type === "DL" || d.type === "ID");
  if (!designator) throw new AamvaFormatError(`AAMVA record has no DL or ID subfile (found ${designators.map((d) => d.type).join(", ")})`);
  const type = designator.type as "DL" | "ID";
  let start = text.startsWith(type, designator.offset) ? designator.offset : text.indexOf(type, headerEnd);
  if (start < 0) throw new AamvaFormatError(`AAMVA ${type} subfile not found`);
  start += type.length;
  const end = text.indexOf("\r", start);
  return { type, body: text.slice(start, end < 0 ? undefined : end) };
}

function parseElements(body: string): Record<string, string> {
  const elements: Record<string, string> = {};
  for (const line of body.split("\n")) {
    const element = /^([A-Z]{3})(.*)$/.exec(line.trim());
    if (!element) {
      if (line.trim()) throw new AamvaFormatError(`AAMVA element is malformed: ${JSON.stringify(line.slice(0, 20))}`);
      continue;
    }
    elements[element[1]!] ??= element[2]!.trim();
  }
  if (Object.keys(elements).length === 0) throw new AamvaFormatError("AAMVA subfile has no elements");
  return elements;
}

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** MMDDCCYY (USA) or CCYYMMDD (Canada) to an ISO date. */
export function aamvaDate(value: string, country: "USA" | "CAN"): string {
  if (!/^\d{8}$/.test(value)) throw new AamvaFormatError(`AAMVA date is not 8 digits: ${JSON.stringify(value)}`);
  const n = (from: number, to: number) => Number(value.slice(from, to));
  const iso = country === "CAN" ? isoDate(n(0, 4), n(4, 6), n(6, 8)) : isoDate(n(4, 8), n(0, 2), n(2, 4));
  if (!iso) throw new AamvaFormatError(`AAMVA date is not a calendar date: ${value} (${country === "CAN" ? "CCYYMMDD" : "MMDDCCYY"})`);
  return iso;
}

function sex(value: string | undefined): Sex | null {
  switch (value?.toUpperCase()) {
    case "1":
    case "M":
      return "M";
    case "2":
    case "F":
      return "F";
    case "9":
    case "X":
      return "X";
    default:
      return null;
  }
}

const present = (value: string | undefined) => (value === undefined || ABSENT.has(value.toUpperCase()) ? null : value);

/** Parses an AAMVA DL/ID barcode payload; throws AamvaFormatError on anything malformed. */
export function parseAamva(text: string): AamvaRecord {
  const { issuerId, version, designators, end } = parseHeader(text);
  const { type, body } = subfileBody(text, designators, end);
  const elements = parseElements(body);
  const country = elements.DCG === "CAN" ? "CAN" : elements.DCG === "USA" || elements.DCG === undefined ? "USA" : null;
  if (country === null) throw new AamvaFormatError(`AAMVA country is neither USA nor CAN: ${elements.DCG}`);
  const date = (id: string) => (present(elements[id]) ? aamvaDate(elements[id]!, country) : null);
  // Version 2 and earlier: DCT held all given names.
  const givenNames = present(elements.DCT)?.split(/[ ,]+/) ?? [];
  return {
    subfile: type,
    issuer_id: issuerId,
    aamva_version: version,
    first_name: present(elements.DAC) ?? givenNames[0] ?? null,
    middle_name: present(elements.DAD) ?? (givenNames.slice(1).join(" ") || null),
    last_name: present(elements.DCS),
    date_of_birth: date("DBB"),
    expiry_date: date("DBA"),
    issue_date: date("DBD"),
    document_number: present(elements.DAQ),
    state: present(elements.DAJ),
    country,
    sex: sex(elements.DBC),
    elements,
  };
}
