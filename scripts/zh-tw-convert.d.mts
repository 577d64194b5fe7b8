/** Types of zh-tw-convert.mjs (see there). */
export function glossaryReplacements(glossary: string, convert: (text: string) => string, convertCharacters?: (text: string) => string): [string, string][]
export function toTraditional<T>(value: T, glossary: string): T
