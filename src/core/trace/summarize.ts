/**
 * Counting what a log holds and listing every anomaly, for the CLI's `replay --summary`
 * and the import dialog. Pure.
 */
import type { ToolSpec } from '../tools/types'
import { findAnomalies, type AnomalyCode, type AnomalyOptions } from './anomalies'
import type { ImportedConversation } from './import-log'

/** One anomaly, located by conversation and message. */
export interface LocatedAnomaly {
  /** 0-based index of the conversation in the import. */
  conversation: number
  /** 0-based index of the message within that conversation. */
  message: number
  code: AnomalyCode
  detail: string
}

/** Totals over all conversations of an import. Key order is the CLI's JSON contract. */
export interface ReplaySummary {
  conversations: number
  messages: number
  /** Calls in assistant messages. */
  toolCalls: number
  /** Messages with role `tool`. */
  toolResults: number
  /** Ordered by conversation, then message. */
  anomalies: LocatedAnomaly[]
}

/**
 * Summarise imported conversations. Pure.
 *
 * @param tools - Tool definitions to check calls against; when absent, each conversation's own
 *   `tools` (if the log carried any) are used.
 * @param options - Check settings (trim window, repeat threshold, …); each conversation's
 *   `messageMeta` is passed along.
 */
export function summarize(
  conversations: readonly Pick<ImportedConversation, 'messages' | 'tools' | 'messageMeta'>[],
  tools?: readonly ToolSpec[],
  options: Omit<AnomalyOptions, 'messageMeta'> = {},
): ReplaySummary {
  const summary: ReplaySummary = { conversations: conversations.length, messages: 0, toolCalls: 0, toolResults: 0, anomalies: [] }
  conversations.forEach((conversation, index) => {
    summary.messages += conversation.messages.length
    for (const message of conversation.messages) {
      if (message.role === 'assistant') summary.toolCalls += message.tool_calls?.length ?? 0
      if (message.role === 'tool') summary.toolResults += 1
    }
    for (const anomaly of findAnomalies(conversation.messages, tools ?? conversation.tools, { ...options, ...(conversation.messageMeta ? { messageMeta: conversation.messageMeta } : {}) })) {
      summary.anomalies.push({ conversation: index, message: anomaly.message, code: anomaly.code, detail: anomaly.detail })
    }
  })
  return summary
}
