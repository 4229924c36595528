/**
 * A whole number with its thousands grouped by commas, as `toLocaleString("en-US")` writes it
 * ("12,345"). Not through Intl: the first number Intl formats loads ICU's locale data, about 60 ms
 * measured, which `-p` paid before its first model request for the sentence saying whether tool
 * search is on. A fraction still goes through Intl (nothing on a start's path writes one).
 */
export function groupedNumber(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}
