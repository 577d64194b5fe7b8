/**
 * Joining logged model requests into conversations. Gateways, tracers and loggers write one
 * record per model call, and each call re-sends the whole history, so the records of one
 * conversation are prefixes of each other: call k+1's request starts with call k's request
 * and response. This module finds those chains in time linear in the total number of
 * messages (prefix hashes instead of pairwise comparison), so interleaved conversations of
 * a busy gateway come apart correctly.
 *
 * Pure.
 */
import type { Message } from '../../messages'
import type { ToolSpec } from '../../tools/types'
import type { ImportedConversation, ImportStep, MessageMeta } from './types'
import { conversationOf, type LogRecord } from './shared'

/** One logged model call: the history it was sent and, when logged, the reply appended to it. */
export interface Exchange {
  /** Request messages followed by the response message(s), in canonical form. */
  messages: Message[]
  /** How many of `messages` were the request; the rest came from the response. */
  requestLength: number
  /** Per-message facts, keyed by index into `messages`. */
  messageMeta: Map<number, MessageMeta>
  /** Tool definitions sent with the request. */
  tools?: ToolSpec[] | undefined
  id: string
  label: string
  /** JSON path of the record's request messages. */
  path: string
  meta: ImportedConversation['meta']
}

/** Two 32-bit lanes of a string hash; 64 bits make an accidental match between different histories negligible. */
function hashPair(text: string): [number, number] {
  let a = 0x811c9dc5
  let b = 0x01000193
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b + code, 0x5bd1e995) ^ (b >>> 15)
  }
  return [a >>> 0, b >>> 0]
}

/**
 * What makes two logged messages "the same" when a client re-sends history: role, text and
 * the calls' ids, names and parsed arguments. Tool message names are left out: the request
 * may carry one and a reconstructed reply may not; `null` and empty content are equal.
 */
function messageKey(message: Message): string {
  switch (message.role) {
    case 'assistant':
      return JSON.stringify(['a', message.content ?? '', (message.tool_calls ?? []).map((call) => [call.id, call.name, call.arguments])])
    case 'tool':
      return JSON.stringify(['t', message.tool_call_id, message.content])
    default:
      return JSON.stringify([message.role[0], message.content])
  }
}

/** Prefix hash keys `k:a:b` for prefixes of length 1..messages.length. */
function prefixKeys(messages: readonly Message[]): string[] {
  const keys: string[] = []
  let a = 0
  let b = 0
  messages.forEach((message, index) => {
    const [x, y] = hashPair(messageKey(message))
    a = (Math.imul(a, 0x9e3779b1) + x) >>> 0
    b = (Math.imul(b, 0x85ebca6b) ^ y) >>> 0
    keys.push(`${index + 1}:${a}:${b}`)
  })
  return keys
}

/**
 * Join exchanges whose history extends an earlier exchange's whole conversation. A join is
 * made only when it is unambiguous: the earlier exchange is extended by exactly one later
 * one (two extensions mean a retry or a branch, so both stay separate conversations), and
 * no other exchange logged the very same conversation.
 *
 * @returns Conversations in the order of their first exchange; each is named after its first
 *   exchange and holds the last exchange's messages, with the finish reasons of all of them.
 */
export function joinExchanges(exchanges: readonly Exchange[]): ImportedConversation[] {
  const fullOwner = new Map<string, number>()
  const duplicated = new Set<string>()
  const fullKeys: (string | undefined)[] = []
  const parent: number[] = []
  const children: number[] = exchanges.map(() => 0)

  exchanges.forEach((exchange, index) => {
    const keys = prefixKeys(exchange.messages)
    // The longest earlier conversation that this request starts with.
    let found = -1
    for (let length = Math.min(exchange.requestLength, keys.length); length >= 1 && found < 0; length--) {
      const owner = fullOwner.get(keys[length - 1]!)
      if (owner !== undefined) found = owner
    }
    parent.push(found)
    if (found >= 0) children[found] = (children[found] ?? 0) + 1
    const full = keys[keys.length - 1]
    fullKeys.push(full)
    if (full === undefined) return
    if (fullOwner.has(full)) duplicated.add(full)
    else fullOwner.set(full, index)
  })

  const joinsParent = (index: number): boolean => {
    const up = parent[index] ?? -1
    if (up < 0 || children[up] !== 1) return false
    const key = fullKeys[up]
    return key !== undefined && !duplicated.has(key)
  }
  // Each chain is followed from its root down; `next` is the single child that joins.
  const next = new Map<number, number>()
  exchanges.forEach((_, index) => {
    if (joinsParent(index)) next.set(parent[index]!, index)
  })

  const conversations: ImportedConversation[] = []
  exchanges.forEach((root, index) => {
    if (joinsParent(index)) return
    const messageMeta = new Map(root.messageMeta)
    let last = index
    let count = 1
    for (let step = next.get(index); step !== undefined; step = next.get(step)) {
      for (const [at, meta] of exchanges[step]!.messageMeta) messageMeta.set(at, meta)
      last = step
      count++
    }
    const tail = exchanges[last]!
    conversations.push(
      conversationOf({
        id: root.id,
        label: count > 1 ? `${root.label} · ${count} calls` : root.label,
        messages: tail.messages,
        path: root.path,
        meta: root.meta,
        tools: tail.tools ?? root.tools,
        messageMeta,
      }),
    )
  })
  return conversations
}

/**
 * Read every record as an exchange, then join them (`joinExchanges`). Reading is most of
 * the work, so progress covers it up to 0.9 and the emitted conversations the rest.
 *
 * @throws BadField from `read`.
 */
export function* readJoined(records: readonly LogRecord[], read: (value: LogRecord['value'], path: string, index: number) => Exchange): Generator<ImportStep, void, void> {
  const exchanges: Exchange[] = []
  for (const record of records) {
    exchanges.push(read(record.value, record.path, record.index))
    if (record.index % 256 === 255) yield { fraction: (0.9 * (record.index + 1)) / records.length }
  }
  const conversations = joinExchanges(exchanges)
  for (const [index, conversation] of conversations.entries()) yield { conversation, fraction: 0.9 + (0.1 * (index + 1)) / conversations.length }
}
