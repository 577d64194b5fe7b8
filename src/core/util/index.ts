/** Small helpers every layer shares: JSON object test, thrown-value messages, BOM-safe text and JSON. */
export { isJsonObject } from './json-object'
export { errorMessage } from './error-message'
export { callJson, jsonDepth, jsonOf, jsonWithMember, MAX_FILE_DEPTH, MAX_JSON_DEPTH, partialJsonMatch, rememberedJson, rememberJson, stableJson, tooDeep } from './json-walk'
export { decodeText, parseJsonText, readTextFile, sniffBom, stripBom, type JsonTextResult, type TextEncodingLabel, type TextFileResult } from './text-file'
export { phrase, phraseRef, renderPhrase, type Catalogue, type CatalogueKey, type Phrase, type PhraseParams, type PhraseRef } from './phrase'
export { isWideJson, JSON_PART_OPS, OP, readJsonParts, toJsonParts, WIDE_JSON_NODES, type JsonPart, type JsonPartsReader } from './json-parts'
export { setMember } from './json-object'
