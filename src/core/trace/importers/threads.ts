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
import { conversationOf, labelHead, labelled, type LogRecord } from './shared'
import { tracePhrase } from '../trace-text'
import type { Phrase } from '../../util/phrase'

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
  /** `label` as a phrase, when Toolstep worded it (see `ImportedConversation.labelPhrase`). */
  labelPhrase?: Phrase | undefined
  /** JSON path of the record's request messages. */
  path: string
  meta: ImportedConversation['meta']
}

/**
 * What makes two logged messages "the same" when a client re-sends history: role, text and
 * the calls' ids, names and parsed arguments. Tool message names are left out: the request
 * may carry one and a reconstructed reply may not; `null` and empty content are equal.
 */
function messageKey(message: Message): string {
  switch (message.role) {
    case 'assistant': {
      let key = `a\u0000${message.content ?? ''}`
      for (const call of message.tool_calls ?? []) key += `\u0001${call.id}\u0002${call.name}\u0002${JSON.stringify(call.arguments)}`
      return key
    }
    case 'tool':
      return `t\u0000${message.tool_call_id}\u0000${message.content}`
    default:
      return `${message.role[0]}\u0000${message.content}`
  }
}

/**
 * Interns messages as small integers: equal messages get equal ids, so histories compare as
 * integer arrays, and prefix hashes need no string work (the Map hashes each key natively once).
 */
class MessageIds {
  private readonly ids = new Map<string, number>()
  of(message: Message): number {
    const key = messageKey(message)
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.ids.size
      this.ids.set(key, id)
    }
    return id
  }
}

/** Rolling hashes of every prefix (length 1..n) of an id sequence, as numbers below 2^53. */
function prefixHashes(ids: Int32Array): Float64Array {
  const hashes = new Float64Array(ids.length)
  let a = 0x811c9dc5
  let b = 0x01000193
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index]!
    a = (Math.imul(a ^ id, 0x01000193) + index) >>> 0
    b = (Math.imul(b + id, 0x5bd1e995) ^ (b >>> 13)) >>> 0
    // 32 bits of one lane and 21 of the other stay exact in a double.
    hashes[index] = a * 0x200000 + (b & 0x1fffff)
  }
  return hashes
}

function samePrefix(full: Int32Array, other: Int32Array): boolean {
  if (other.length < full.length) return false
  for (let index = 0; index < full.length; index++) if (full[index] !== other[index]) return false
  return true
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
  const interned = new MessageIds()
  const sequences = exchanges.map((exchange) => Int32Array.from(exchange.messages, (message) => interned.of(message)))
  const fullOwner = new Map<number, number>()
  const duplicated = new Set<number>()
  const fullKeys: (number | undefined)[] = []
  const parent: number[] = []
  const children: number[] = exchanges.map(() => 0)

  exchanges.forEach((exchange, index) => {
    const ids = sequences[index]!
    const hashes = prefixHashes(ids)
    // The longest earlier conversation that this request starts with (hash hit, then checked exactly).
    let found = -1
    for (let length = Math.min(exchange.requestLength, hashes.length); length >= 1 && found < 0; length--) {
      const owner = fullOwner.get(hashes[length - 1]!)
      if (owner !== undefined && samePrefix(sequences[owner]!, ids)) found = owner
    }
    parent.push(found)
    if (found >= 0) children[found] = (children[found] ?? 0) + 1
    const full = hashes.length > 0 ? hashes[hashes.length - 1] : undefined
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
        ...(count > 1 ? labelled(tracePhrase('labelCalls', { head: labelHead(root), n: count })) : labelled(labelHead(root))),
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
