/**
 * Reading a recorded stream part of the way through, for *Play as stream*: what the reply
 * looked like after its first `count` chunks (text so far, calls so far with their arguments
 * as received). Uses the same stream importers as a whole import, so the last step equals
 * the imported reply. Pure; never throws; linear in the chunks read.
 */
import { openAIArguments } from '../wire/openai-chat'
import { importLog } from './import-log'
import type { RecordedResponse } from './importers/types'

/** The reply after some chunks of a recorded stream. */
export interface PartialReply {
  /** Text so far (`null` when none arrived yet). */
  content: string | null
  /** Calls so far, in order; `arguments` is the JSON text received so far. */
  calls: { id: string; name: string; arguments: string }[]
}

/**
 * The reply after the first `count` chunks of `recorded` (a `sse` or `jsonl` recording), or
 * `undefined` while those chunks do not yet make a readable stream (e.g. only a `ping`).
 */
export function readRecordedPrefix(recorded: RecordedResponse, count: number): PartialReply | undefined {
  const chunks = recorded.chunks ?? []
  const text = chunks
    .slice(0, Math.max(0, count))
    .map((chunk) => chunk.text)
    .join('')
  if (text.trim() === '') return undefined
  const result = importLog(text)
  if (!result.ok) return undefined
  const reply = result.conversations[0]?.messages.findLast((message) => message.role === 'assistant')
  if (reply?.role !== 'assistant') return undefined
  return {
    content: reply.content,
    calls: (reply.tool_calls ?? []).map((call) => ({ id: call.id, name: call.name, arguments: openAIArguments(call) })),
  }
}

/**
 * Delays between chunks for playback, ms: the recorded gaps where every chunk has `atMs`,
 * else `fallbackMs` each. The first chunk plays at once.
 */
export function playbackDelays(recorded: RecordedResponse, fallbackMs: number): number[] {
  const chunks = recorded.chunks ?? []
  const timed = chunks.length > 0 && chunks.every((chunk) => typeof chunk.atMs === 'number')
  return chunks.map((chunk, index) => (index === 0 ? 0 : timed ? Math.max(0, (chunk.atMs ?? 0) - (chunks[index - 1]?.atMs ?? 0)) : fallbackMs))
}
