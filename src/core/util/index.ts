/** Small helpers every layer shares: JSON object test, thrown-value messages, BOM-safe text and JSON. */
export { isJsonObject } from './json-object'
export { errorMessage } from './error-message'
export { decodeText, parseJsonText, sniffBom, stripBom, type JsonTextResult, type TextEncodingLabel } from './text-file'
