/**
 * A number as a person writes one on a command line or in a variable: decimal digits, a sign, a
 * point. JavaScript's Number() also reads `0x10` (16), `1e3`, `0b1` and " " (0), none of which
 * a person means as the number it becomes.
 */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isDecimalNumber(text: string): boolean {
  return DECIMAL.test(text);
}
