/** Reading the whole-number values of command-line flags. */

/**
 * `text` as a whole number from `min` to `max` when it is written as one, in decimal digits only;
 * otherwise `undefined`. `Number()` alone took `1e9`, `0x40`, `' 64'` and `99999999999999999999`.
 */
export function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^\d{1,16}$/.test(text)) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined
}
