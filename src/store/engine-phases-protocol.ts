/**
 * The messages between the page and the engine-phase worker, and the worker's side of them.
 * A phase's event comes back in parts: its one list that grows with the output (a parse's
 * `calls`, a validation's `verdicts`) in slices of {@link PART_ITEMS}, then the rest of the
 * event. Each part is its own message, so the page takes each in a task of its own and a turn
 * of 100 000 calls never arrives as one structured clone that blocks it. The worker keeps the
 * calls of the last parse it made, so validating that parse sends only a token, not the calls.
 * A call or verdict whose arguments are wide (tens of thousands of values, or a million chars of
 * strings: one call of 500 000 objects took ~270 ms to clone) goes with empty arguments; its
 * arguments follow in `value-part`s (see json-parts.ts in core/util), which the page reads one
 * task each, then their JSON texts in `value-json` parts, written here so that the page never
 * writes them (~80 ms for 500 000 objects). A call's raw arguments over a million chars follow
 * as `value-json` parts too.
 */
import { parseTurn, validateTurn, type ParseCompleted, type ParseInput, type ValidateCompleted, type ValidateInput, type Verdict } from '../core/loop'
import { isWideJson, jsonOf, stableJson, toJsonParts, type JsonPart } from '../core/util'

/** Items of a list per message; small enough that one message clones in a few ms. */
export const PART_ITEMS = 2000
/**
 * A raw output longer than this many chars goes to the worker in parts of this size, one per
 * task: posting 10 MB of text in one message held the page for ~50 ms.
 */
export const PART_CHARS = 1_000_000

type ParsedCalls = ParseCompleted['calls']

/** What a validate request carries instead of the state's parse: the parse without its calls. */
export type ValidateRequestInput = Omit<ValidateInput, 'parse'> & { parse: (Omit<NonNullable<ValidateInput['parse']>, 'calls'> & { calls: [] }) | null }

/**
 * A verdict as the worker sends it: when its arguments hold the very members of its call's (no
 * coercion, nothing dropped), they are not sent again (a call can hold megabytes of them):
 * `sameArguments` says the page takes its own call's, the one at the verdict's position (see
 * {@link fromWireVerdict}).
 */
export type WireVerdict = Verdict & { sameArguments?: true }

/** `verdict` for the wire, its arguments left out when they are `call`'s members as they were. */
export function asWireVerdict(verdict: Verdict, call: ParsedCalls[number] | undefined): WireVerdict {
  if (!call || verdict.callId !== call.id || !sameMembers(verdict.arguments, call.arguments)) return verdict
  const { arguments: _same, ...rest } = verdict
  return { ...rest, sameArguments: true }
}

/** The verdict the worker made, its arguments (when left out) being the page's own call's object. */
export function fromWireVerdict(verdict: WireVerdict, calls: ParsedCalls, position: number): Verdict {
  if (verdict.sameArguments === undefined) return verdict
  const { sameArguments: _same, ...rest } = verdict
  const call = calls[position]
  return call && call.id === verdict.callId ? { ...rest, arguments: call.arguments } : rest
}

/** What a `value-json` message's text is: see {@link WorkerToPage}. */
export type SentText = 'json' | 'stable' | 'both' | 'raw'

/** What of an item is sent apart from it: where the item is in its list, its wide arguments in parts, and long texts. */
interface SentApart {
  position: number
  parts: JsonPart[]
  texts: [string, SentText][]
}

/**
 * `items` (calls or verdicts), each with wide arguments given empty ones instead and a long
 * `rawArguments` given `''`, what was taken pushed onto `apart`; `items` itself when nothing was.
 */
function withWideArgumentsApart<Item extends { arguments?: ParsedCalls[number]['arguments']; rawArguments?: string }>(items: Item[], apart: SentApart[]): Item[] {
  let out: Item[] | undefined
  for (let position = 0; position < items.length; position++) {
    const item = items[position]!
    const args = item.arguments
    const wide = args !== undefined && isWideJson(args)
    const longRaw = item.rawArguments !== undefined && item.rawArguments.length > PART_CHARS
    if (!wide && !longRaw) continue
    out ??= items.slice()
    const taken: SentApart = { position, parts: [], texts: [] }
    const copy = { ...item }
    if (wide) {
      copy.arguments = {}
      taken.parts = toJsonParts(args)
      // The page checks repeated calls by the stable text: when it differs (keys not sorted, as a
      // model writes them in its schema's order), it is sent too, or the page would walk 500 000
      // objects to write it.
      const json = jsonOf(args)
      const stable = stableJson(args)
      taken.texts = stable === json ? [[json, 'both']] : [[json, 'json'], [stable, 'stable']]
    }
    if (longRaw) {
      copy.rawArguments = ''
      taken.texts.push([item.rawArguments!, 'raw'])
    }
    out[position] = copy
    apart.push(taken)
  }
  return out ?? items
}

/** True when `a` has exactly `b`'s own members, in the same order, each the same value. */
function sameMembers(a: Verdict['arguments'], b: ParsedCalls[number]['arguments']): boolean {
  if (a === undefined || a === b) return a === b
  const keys = Object.keys(a)
  const other = Object.keys(b)
  if (keys.length !== other.length) return false
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!
    if (key !== other[k] || a[key] !== b[key]) return false
  }
  return true
}

export type PageToWorker =
  | { type: 'parse'; id: number; input: ParseInput; rawInParts?: true }
  | { type: 'raw-part'; id: number; text: string }
  /** Calls the next validate request of `id` reads (sent before it, when the worker does not hold them). */
  | { type: 'calls-part'; id: number; items: ParsedCalls }
  /** `callsOf`: the id of the parse whose calls the worker holds, or `id` itself for the calls sent in parts. */
  | { type: 'validate'; id: number; input: ValidateRequestInput; callsOf: number }

export type WorkerToPage =
  | { type: 'part'; id: number; items: unknown[] }
  /** A part of the arguments of the call at `position` of the parts sent (sent with `{}` for them); `last` ends them. */
  | { type: 'value-part'; id: number; position: number; part: JsonPart; last: boolean }
  /**
   * A part of a long text of the item at `position` (after the value parts of its arguments):
   * `as` says which (the arguments' JSON as `JSON.stringify` writes it, their `stableJson`, both
   * when their keys are in order, see `rememberJson`; or the call's `rawArguments`); `last` ends it.
   */
  | { type: 'value-json'; id: number; position: number; text: string; last: boolean; as: SentText }
  /** The event with its long list emptied: `field` says which one the parts fill. */
  | { type: 'done'; id: number; event: ParseCompleted | ValidateCompleted; field: 'calls' | 'verdicts' }
  | { type: 'failed'; id: number; message: string }

/** The worker's end of a message port: what `self` in a dedicated worker and a `MessagePort` both have. */
export interface PhasePort {
  postMessage(message: WorkerToPage): void
  onmessage: ((event: { data: PageToWorker }) => void) | null
}

/**
 * Serves phase requests on `port` (the worker's side). Requests are answered in the order they
 * came; an error thrown by a builder (which should never happen: builders never throw on any
 * output) is answered as `failed` with its message.
 */
export function servePhases(port: PhasePort): void {
  /** The calls of the last parse made here, by the request id that made it. */
  let held: { id: number; calls: ParsedCalls } | null = null
  /** Calls sent in parts for a validate request, by its id. */
  const sent = new Map<number, ParsedCalls>()
  const rawParts = new Map<number, string[]>()

  const reply = (id: number, event: ParseCompleted | ValidateCompleted, field: 'calls' | 'verdicts') => {
    const apart: SentApart[] = []
    const list: unknown[] = field === 'calls' ? withWideArgumentsApart((event as ParseCompleted).calls, apart) : withWideArgumentsApart((event as ValidateCompleted).verdicts, apart)
    for (let at = 0; at < list.length; at += PART_ITEMS) port.postMessage({ type: 'part', id, items: list.slice(at, at + PART_ITEMS) })
    for (const { position, parts, texts } of apart) {
      parts.forEach((part, index) => port.postMessage({ type: 'value-part', id, position, part, last: index === parts.length - 1 }))
      for (const [text, as] of texts) {
        for (let at = 0; at < text.length; at += PART_CHARS) {
          port.postMessage({ type: 'value-json', id, position, text: text.slice(at, at + PART_CHARS), last: at + PART_CHARS >= text.length, as })
        }
      }
    }
    port.postMessage({ type: 'done', id, event: { ...event, [field]: [] } as ParseCompleted | ValidateCompleted, field })
  }

  port.onmessage = ({ data }) => {
    try {
      switch (data.type) {
        case 'parse': {
          const input = data.rawInParts ? { ...data.input, raw: (rawParts.get(data.id) ?? []).join('') } : data.input
          rawParts.delete(data.id)
          const event = parseTurn(input)
          held = { id: data.id, calls: event.calls }
          reply(data.id, event, 'calls')
          return
        }
        case 'raw-part': {
          const parts = rawParts.get(data.id) ?? []
          parts.push(data.text)
          rawParts.set(data.id, parts)
          return
        }
        case 'calls-part': {
          const calls = sent.get(data.id) ?? []
          for (const call of data.items) calls.push(call)
          sent.set(data.id, calls)
          return
        }
        case 'validate': {
          const calls = data.callsOf === data.id ? (sent.get(data.id) ?? []) : held?.id === data.callsOf ? held.calls : null
          sent.delete(data.id)
          if (!calls) {
            port.postMessage({ type: 'failed', id: data.id, message: `the calls of parse ${data.callsOf} are no longer held` })
            return
          }
          const { parse, ...rest } = data.input
          const event = validateTurn({ ...rest, parse: parse ? { ...parse, calls } : null })
          reply(data.id, { ...event, verdicts: event.verdicts.map((verdict, index) => asWireVerdict(verdict, calls[index])) }, 'verdicts')
          return
        }
      }
    } catch (error) {
      port.postMessage({ type: 'failed', id: data.id, message: error instanceof Error ? error.message : String(error) })
    }
  }
}
