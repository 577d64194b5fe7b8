/**
 * Streaming parse of model output: {@link streamParserFor} (the registry's `createStreamParser`
 * in `../index.ts` takes a protocol id).
 */
export { streamParserFor } from './create-stream-parser'
export { ReparseScanner, reparseScanner } from './reparse-scanner'
export { JsonStreamReader, type StringSink } from './json-stream-reader'
export type { StreamParser, StreamSnapshot, StreamingCall } from './types'
