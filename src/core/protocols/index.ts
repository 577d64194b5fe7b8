/**
 * The protocol registry. Ids are stable (saved in workspace and session files); never rename one.
 */
import { anthropic } from './anthropic'
import { auto } from './auto'
import { bracket } from './bracket'
import { commandR } from './command-r'
import { deepseek } from './deepseek'
import { glm4 } from './glm4'
import { glm45 } from './glm45'
import { granite } from './granite'
import { harmony } from './harmony'
import { json } from './json'
import { kimiK2 } from './kimi-k2'
import { llama3Json } from './llama3-json'
import { mistral } from './mistral'
import { openai } from './openai'
import { phi4 } from './phi4'
import { pipe } from './pipe'
import { pythonic } from './pythonic'
import { qwen3Coder } from './qwen3-coder'
import { xmlTag } from './xml-tag'
import type { Protocol } from './types'

export type { ParseError, ParseResult, ParsedCall, Protocol, Repair, Span } from './types'
export { auto, detectProtocol } from './auto'

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
]

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
