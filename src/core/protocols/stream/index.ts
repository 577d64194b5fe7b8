/**
 * Streaming parse of model output: {@link createStreamParser}.
 */
export { createStreamParser } from './create-stream-parser'
export { JsonStreamReader, type StringSink } from './json-stream-reader'
export type { StreamParser, StreamSnapshot, StreamingCall } from './types'
