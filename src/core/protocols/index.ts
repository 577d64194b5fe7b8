/**
 * The protocol registry and the public surface of `src/core/protocols`. Ids are stable (saved in
 * workspace and session files); never rename one.
 *
 * Adding a wire format: one module that exports a {@link Protocol} (parse, detect, createScanner,
 * instructions, render, example; `shared/define.ts` builds most of it), plus its line in
 * {@link formats}. `auto`, streaming and the Parse lab read the registry.
 */
import type { Phrase } from '../util/phrase'
import { anthropic } from './anthropic'
import { createAuto } from './auto'
import { bracket } from './bracket'
import { commandR } from './command-r'
import { deepseek } from './deepseek'
import { deepseekDsml } from './deepseek-dsml'
import { glm4 } from './glm4'
import { glm45 } from './glm45'
import { granite } from './granite'
import { harmony } from './harmony'
import { internlm } from './internlm'
import { json } from './json'
import { kimiK2 } from './kimi-k2'
import { llama3Json } from './llama3-json'
import { magistral } from './magistral'
import { minimaxM2 } from './minimax-m2'
import { mistral } from './mistral'
import { createOpenAi } from './openai'
import { phi4 } from './phi4'
import { pipe } from './pipe'
import { pythonic } from './pythonic'
import { qwen3Coder } from './qwen3-coder'
import { seedOss } from './seed-oss'
import { xmlTag } from './xml-tag'
import { streamParserFor, type StreamParser } from './stream/index'
import type { Protocol } from './types'


/**
 * `openai`, reading calls a server left in `content` (empty `tool_calls`) with `auto` over the
 * text formats.
 */
const openai = createOpenAi((text) => textAuto.parse(text))

/** Every concrete wire format, in the order the format picker lists them. */
export const formats: readonly Protocol[] = [
  openai,
  anthropic,
  json,
  xmlTag,
  bracket,
  pipe,
  mistral,
  llama3Json,
  pythonic,
  deepseek,
  granite,
  qwen3Coder,
  glm45,
  glm4,
  kimiK2,
  harmony,
  commandR,
  phi4,
  minimaxM2,
  deepseekDsml,
  seedOss,
  internlm,
  magistral,
]

/**
 * `auto`: asks every format above where its earliest call starts and reads the output with the
 * earliest (see `auto.ts`).
 */
export const auto = createAuto(() => formats)

/** `auto` over the formats that are written as text (what a native message's content can hold). */
const textAuto = createAuto(() => formats.filter((protocol) => !protocol.native))

/** The protocol `auto` chooses for `raw`, and why (`reason` in English, `phrase` the same as a phrase of `PARSE_TEXT`). Pure; linear in `raw.length`. */
export function detectProtocol(raw: string): { protocol: Protocol; reason: string; phrase?: Phrase } {
  return auto.detectProtocol(raw)
}

/** What the format picker offers: `auto` first, then every concrete format. */
export const protocols: readonly Protocol[] = [auto, ...formats]

const byId = new Map<string, Protocol>(protocols.map((protocol) => [protocol.id, protocol]))

/**
 * The protocol with this id (`auto` included), or `undefined`. Safe for any string, including
 * `__proto__` and `constructor`.
 */
export function getProtocol(id: string): Protocol | undefined {
  return byId.get(id)
}

export type { FormatDetection, ParseError, ParseResult, ParsedCall, Protocol, Repair, RenderableOutput, Span, StreamScanner, StreamingCall } from './types'
export { detectCandidates, type Candidate } from './auto'
export { JsonStreamReader, type StreamParser, type StreamSnapshot } from './stream/index'

/**
 * Creates an incremental parser for one output in the protocol `protocolId` (see
 * `stream/create-stream-parser.ts` for the cost and the snapshot contract).
 *
 * @param protocolId a registry id (`auto` included), or a protocol
 * @throws RangeError when no protocol has that id (a programming error, not an input error)
 */
export function createStreamParser(protocolId: string | Protocol): StreamParser {
  const protocol = typeof protocolId === 'string' ? getProtocol(protocolId) : protocolId
  if (!protocol) throw new RangeError(`Unknown protocol "${String(protocolId)}".`)
  return streamParserFor(protocol)
}
