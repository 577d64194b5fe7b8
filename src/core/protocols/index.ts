/**
 * The protocol registry. Ids are stable (saved in workspace and session files); never rename one.
 */
import { auto } from './auto'
import { json } from './json'
import { openai } from './openai'
import { xmlTag } from './xml-tag'
import type { Protocol } from './types'

export type { ParseError, ParseResult, ParsedCall, Protocol, Repair, Span } from './types'
export { auto, detectProtocol } from './auto'

/** Every concrete wire format, in the order the format picker lists them. */
export const formats: readonly Protocol[] = [openai, json, xmlTag]

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
