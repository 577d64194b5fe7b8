/**
 * *Save as mock model*: a `model.ts` that replays a session's model outputs turn by turn, so a
 * run against a real model becomes a deterministic example, lesson or test.
 *
 * Each recorded turn keeps the raw output exactly as received (so the replayed timeline shows
 * the same raw text and the same parsed calls) and a fingerprint of the last message the model
 * saw before it. At each step the generated model checks that fingerprint against the
 * conversation it is given and throws, naming the turn and both messages, when the run has
 * diverged from the recording (different input, tools that answer differently, edited code).
 */
import type { Message } from '../messages'
import type { SessionEvent } from '../loop/events'
import { requestAt } from '../loop/present/request-at'

/** One recorded turn. */
export interface RecordedTurn {
  /** 0-based decide index. */
  step: number
  /** The last message the model saw, as {@link messageFingerprint} writes it. */
  after: string
  /** The output as received. */
  raw: string
}

/** `role: text` of a message (a tool message also names its tool), cut at 300 chars. Pure. */
export function messageFingerprint(message: Message | undefined): string {
  if (!message) return '(no message)'
  const text = message.role === 'tool' ? `tool ${message.name}: ${message.content}` : `${message.role}: ${message.content ?? ''}${message.role === 'assistant' && message.tool_calls ? ` [${message.tool_calls.map((c) => c.name).join(', ')}]` : ''}`
  return text.length > 300 ? text.slice(0, 300) : text
}

/** The turns of a session's `model.responded` events, in order; an output the user edited is replayed as edited. Pure. */
export function recordedTurns(events: readonly SessionEvent[]): RecordedTurn[] {
  return events.flatMap((event, index) => {
    if (event.type !== 'model.responded') return []
    const { messages } = requestAt(events, index)
    const next = events[index + 1]
    const raw = next?.type === 'edit.applied' && next.target === 'model_output' && next.editedSeq === event.seq ? next.edited : event.raw
    return [{ step: event.step, after: messageFingerprint(messages.at(-1)), raw }]
  })
}

/**
 * The source of a `model.ts` replaying `events` (see the module header). `origin` is written
 * into its header comment (e.g. the endpoint and model name). Throws an Error when the
 * session has no model output to replay.
 */
export function writeMockModel(events: readonly SessionEvent[], origin = 'a live run'): string {
  const turns = recordedTurns(events)
  if (turns.length === 0) throw new Error('This session has no model output to save: run it first.')
  const protocol = events.find((e) => e.type === 'session.started')?.protocol ?? 'unknown'
  return `// Recorded by Toolstep's "Save as mock model" from ${origin.replace(/\n/g, ' ')}, wire format ${protocol}.
// Replays the model's outputs turn by turn, exactly as they were received. When the conversation
// no longer matches the recording (other input, tools answering differently), it throws an
// error naming the turn, instead of answering something that was never said.
import type { Message, ModelContext } from 'toolstep'

interface Turn {
  step: number
  /** The last message the model saw before this output. */
  after: string
  raw: string
}

const turns: Turn[] = ${JSON.stringify(turns, null, 2)}

function fingerprint(message: Message | undefined): string {
  if (!message) return '(no message)'
  const text = message.role === 'tool' ? \`tool \${message.name}: \${message.content}\` : \`\${message.role}: \${message.content ?? ''}\${message.role === 'assistant' && message.tool_calls ? \` [\${message.tool_calls.map((c) => c.name).join(', ')}]\` : ''}\`
  return text.length > 300 ? text.slice(0, 300) : text
}

export default function model({ messages, step }: ModelContext): string {
  const turn = turns.find((t) => t.step === step)
  if (!turn) throw new Error(\`The recording has \${turns.length} \${turns.length === 1 ? 'turn' : 'turns'}; the loop asked for turn \${step + 1}, which was never recorded.\`)
  const seen = fingerprint(messages[messages.length - 1])
  if (seen !== turn.after) {
    throw new Error(\`The conversation diverged from the recording at turn \${step + 1}: the model was recorded after "\${turn.after}" but now sees "\${seen}".\`)
  }
  return turn.raw
}
`
}
