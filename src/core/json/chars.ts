/** Character classes shared by the JSON readers (one-shot, strict and streaming), by UTF-16 code. */

/** JSON whitespace plus the BOM and no-break space, which models and editors let slip in. */
export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff || code === 0xa0
}

export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

/** First character of an unquoted key or a bare word (`True`, `None`): ASCII letter, `_` or `$`. */
export function isIdentifierStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x24
}

/** Later characters of an unquoted key: also digits and `-` (`max-tokens`). */
export function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || isDigit(code) || code === 0x2d
}
