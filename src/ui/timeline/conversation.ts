/**
 * The Conversation view's model: the session log folded into one card per message, in order —
 * user, assistant (raw output beside the calls parsed out of it, each call with its validation
 * verdict and the id of its tool-result card), tool. Pure: the view at cursor k is
 * `conversationOf(events.slice(0, k + 1))`, the same fold-of-a-prefix rule as the timeline.
 */
import { createAppendFold, type AnomalyFlag, type SessionEvent, type StoredPhrase, type Verdict } from '../../core/loop'

type Ev<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

interface CardBase {
  /** Stable key: `u<seq>.<i>`, `a<seq>`, `t<seq>`. */
  key: string
  /** The event that created the card; the card is current while the cursor is at or after it, up to the next card. */
  seq: number
  /** Anomalies and warnings raised on the events folded into this card. */
  anomalies: CardFlag[]
}

export interface UserCard extends CardBase {
  role: 'user'
  content: string
}

export interface AssistantCard extends CardBase {
  role: 'assistant'
  /** 1-based turn. */
  turn: number
  /** The model output exactly as received; `null` for an assistant message that came in the log's history. */
  raw: string | null
  /** The model call failed (no output). */
  error?: string
  parse?: Ev<'parse.completed'>
  /** Verdict per `tool_call_id`, once validated. */
  verdicts: Record<string, Verdict>
  /** `tool_call_id` → key of the tool card holding its result, once executed. */
  results: Record<string, string>
  /** The user edited the output (`raw` is the edited text): what the model said, and the edit's event. */
  edited?: { original: string; seq: number }
  /** Content and calls of an assistant message from the log's history. */
  content?: string | null
  historyCalls?: { id: string; name: string; arguments: unknown }[]
}

export interface ToolCard extends CardBase {
  role: 'tool'
  callId: string
  name: string
  content: string
  isError: boolean
  truncated: boolean
  /** Key of the assistant card whose call this answers. */
  from?: string
  /** The user edited the result (`content` is the edited text): what the tool returned, and the edit's event. */
  edited?: { original: string; originalError: boolean; seq: number }
}

export type MessageCard = UserCard | AssistantCard | ToolCard

export interface ConversationModel {
  cards: MessageCard[]
  /** The system prompt, when the conversation has one (shown above the cards, not as a card). */
  system: string | null
  /** Stop reason, when the loop stopped. */
  stop: { reason: string; detail?: string; phrase?: StoredPhrase; seq: number } | null
}

/** An anomaly or warning of an event; `ns` names the catalogue of its phrase (anomalies: trace, warnings: loop). */
export type CardFlag = AnomalyFlag & { seq: number; ns: 'trace' | 'loop' }

function flagsOf(event: SessionEvent): CardFlag[] {
  // Most events have neither: one empty array, not three (a 100 000-call turn folds 200 000 events).
  if (!event.anomalies?.length && !event.warnings?.length) return []
  return [...(event.anomalies ?? []).map((a) => ({ ...a, seq: event.seq, ns: 'trace' as const })), ...(event.warnings ?? []).map((a) => ({ ...a, seq: event.seq, ns: 'loop' as const }))]
}

/**
 * Which card's call has each `tool_call_id` (the last one to declare it). The map of every id is
 * built only when asked: the results of a turn are found by their position, and a turn of
 * 100 000 calls made filling it the main cost of the fold.
 */
function owners(): { declare(card: AssistantCard, calls: readonly { id: string }[]): void; of(id: string): AssistantCard | undefined } {
  const declared: [AssistantCard, readonly { id: string }[]][] = []
  let byId: Map<string, AssistantCard> | null = null
  return {
    declare(card, calls) {
      if (byId) for (const c of calls) byId.set(c.id, card)
      else declared.push([card, calls])
    },
    of(id) {
      if (!byId) {
        byId = new Map()
        for (const [card, calls] of declared) for (const c of calls) byId.set(c.id, card)
      }
      return byId.get(id)
    },
  }
}

/** What the fold keeps between events: the cards so far and the assistant card the next phase events belong to. */
interface ConversationAcc {
  cards: MessageCard[]
  system: string | null
  stop: ConversationModel['stop']
  assistant: AssistantCard | null
  callOwner: ReturnType<typeof owners>
}

function startConversation(): ConversationAcc {
  return { cards: [], system: null, stop: null, assistant: null, callOwner: owners() }
}

/**
 * Folds one event into the cards. May change cards made before (a verdict, a result link, an
 * edit, a flag), never removes one; events out of the usual order (a parse with no decide before
 * it) are attached to the nearest card or ignored.
 */
function addEvent(acc: ConversationAcc, event: SessionEvent): void {
  const { cards, callOwner } = acc
  let { assistant } = acc
  switch (event.type) {
    case 'session.started': {
      event.messages.forEach((m, i) => {
        if (m.role === 'system') acc.system = acc.system === null ? m.content : `${acc.system}\n\n${m.content}`
        else if (m.role === 'user') cards.push({ key: `u${event.seq}.${i}`, role: 'user', seq: event.seq, content: m.content, anomalies: [] })
        else if (m.role === 'assistant') {
          const card: AssistantCard = {
            key: `h${event.seq}.${i}`,
            role: 'assistant',
            seq: event.seq,
            turn: 0,
            raw: null,
            verdicts: {},
            results: {},
            content: m.content,
            historyCalls: m.tool_calls?.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) ?? [],
            anomalies: [],
          }
          callOwner.declare(card, m.tool_calls ?? [])
          cards.push(card)
        } else {
          const owner = callOwner.of(m.tool_call_id)
          const key = `t${event.seq}.${i}`
          if (owner) owner.results[m.tool_call_id] = key
          cards.push({ key, role: 'tool', seq: event.seq, callId: m.tool_call_id, name: m.name, content: m.content, isError: m.isError ?? false, truncated: false, from: owner?.key, anomalies: [] })
        }
      })
      if (cards.length > 0) cards.at(-1)!.anomalies.push(...flagsOf(event))
      break
    }
    case 'model.responded':
    case 'model.failed': {
      assistant = acc.assistant = {
        key: `a${event.seq}`,
        role: 'assistant',
        seq: event.seq,
        turn: event.step + 1,
        raw: event.type === 'model.responded' ? event.raw : '',
        ...(event.type === 'model.failed' ? { error: event.error } : {}),
        verdicts: {},
        results: {},
        anomalies: flagsOf(event),
      }
      cards.push(assistant)
      break
    }
    case 'parse.completed':
      if (assistant) {
        assistant.parse = event
        callOwner.declare(assistant, event.calls)
        assistant.anomalies.push(...flagsOf(event))
      }
      break
    case 'validate.completed':
    case 'confirm.requested':
    case 'confirm.decided':
      if (assistant) {
        if (event.type === 'validate.completed') for (const v of event.verdicts) assistant.verdicts[v.callId] = v
        assistant.anomalies.push(...flagsOf(event))
      }
      break
    case 'tool.finished': {
      // Calls made by code-as-action code are part of their block's result, not messages.
      if (event.parentCallId) break
      // The call at the result's position in the turn is almost always the one: a string
      // compare instead of a lookup among every call (100 000 in a big turn).
      const owner = event.index !== undefined && assistant?.parse?.calls[event.index]?.id === event.callId ? assistant : callOwner.of(event.callId)
      const key = `t${event.seq}`
      if (owner) owner.results[event.callId] = key
      cards.push({
        key,
        role: 'tool',
        seq: event.seq,
        callId: event.callId,
        name: event.name,
        content: event.error ?? event.result ?? '',
        isError: event.error !== undefined,
        truncated: event.truncated,
        from: owner?.key,
        anomalies: flagsOf(event),
      })
      break
    }
    case 'backfill.completed': {
      // The assistant and tool messages are already cards; a user message (a retry prompt, the
      // next user turn of a logged conversation) is new.
      event.messages.forEach((m, i) => {
        if (m.role === 'user') cards.push({ key: `u${event.seq}.${i}`, role: 'user', seq: event.seq, content: m.content, anomalies: [] })
      })
      const flags = flagsOf(event)
      if (flags.length > 0) (cards.at(-1) ?? assistant)?.anomalies.push(...flags)
      break
    }
    case 'edit.applied': {
      if (event.target === 'model_output') {
        if (assistant && assistant.seq === event.editedSeq && assistant.raw !== null) {
          // The edited output is parsed again: the card shows it, with the model's own words kept.
          assistant.edited = { original: event.original, seq: event.seq }
          assistant.raw = event.edited
          delete assistant.parse
          assistant.verdicts = {}
        }
      } else {
        const card = cards.findLast((c): c is ToolCard => c.role === 'tool' && c.seq === event.editedSeq)
        if (card) Object.assign(card, { content: event.edited, isError: event.isError === true, edited: { original: event.original, originalError: event.originalError === true, seq: event.seq } })
      }
      break
    }
    case 'loop.stopped':
      acc.stop = { reason: event.reason, ...(event.detail !== undefined ? { detail: event.detail } : {}), ...(event.phrase ? { phrase: event.phrase } : {}), seq: event.seq }
      if (cards.length > 0) cards.at(-1)!.anomalies.push(...flagsOf(event))
      break
  }
}

/**
 * Folds `events` (a prefix of the log) into message cards. Never throws. Linear in the number
 * of events.
 */
export function conversationOf(events: readonly SessionEvent[]): ConversationModel {
  const acc = startConversation()
  for (const event of events) addEvent(acc, event)
  return { cards: acc.cards, system: acc.system, stop: acc.stop }
}

/**
 * `conversationOf` for a log that grows by appending (a live run): each call folds only the
 * events added since the last one, and starts again when the log is not an extension of the last
 * (Reset, an import, a fork; see `extendsLog`). The answer equals `conversationOf(events)`;
 * `folded` counts the events it has folded, for tests that the work is only the new part.
 *
 * The cards of one answer are the same objects as the next's (a verdict or result that arrives
 * later is written into its assistant card): keep the latest answer only. Each answer has its own
 * `cards` array, so a memo keyed on it sees new cards.
 */
export function createConversationFold(): ((events: readonly SessionEvent[]) => ConversationModel) & { readonly folded: number } {
  let folded = 0
  const fold = createAppendFold<SessionEvent, ConversationAcc, ConversationModel>({
    start: startConversation,
    add: (acc, event) => {
      folded++
      addEvent(acc, event)
    },
    view: (acc) => ({ cards: acc.cards.slice(), system: acc.system, stop: acc.stop }),
  })
  return Object.defineProperty((events: readonly SessionEvent[]) => fold(events), 'folded', { get: () => folded }) as ((events: readonly SessionEvent[]) => ConversationModel) & { readonly folded: number }
}

/** Index of the card at `cursor`: the last card created at or before it; -1 when there is none. */
export function cardAtCursor(cards: readonly MessageCard[], cursor: number): number {
  let lo = 0
  let hi = cards.length - 1
  let found = -1
  // Cards are in seq order, so a binary search keeps cursor moves cheap on long logs.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (cards[mid]!.seq <= cursor) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}
