/**
 * What every text protocol does around its own syntax: hide reasoning blocks from the scanner,
 * collect calls, repairs and errors, and turn what no call consumed into the user-visible text.
 */
import type { ParseError, ParseResult, ParsedCall, Repair, Span } from '../types'
import type { Phrase } from '../../util/phrase'
import { parseSaid } from '../../util/parse-text'

/**
 * Errors listed one by one in a result. An output of broken markers can hold one error every few
 * characters (150 000 in a megabyte of `[TOOL:f`); past this many, errors are only counted, and
 * one last `more_errors` entry says how many were left out, so the cost and the size of a result
 * stay those of a normal one.
 */
export const MAX_LISTED_ERRORS = 100

/** Reasoning blocks: their content never yields calls and is not user-visible text. */
export const REASONING_TAGS: ReadonlyArray<readonly [open: string, close: string]> = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['<|START_THINKING|>', '<|END_THINKING|>'],
  // Seed-OSS (ByteDance Seed-OSS-36B chat template).
  ['<seed:think>', '</seed:think>'],
  // Magistral 2507+ (Mistral tokenizer v13 control tokens).
  ['[THINK]', '[/THINK]'],
]

/**
 * Control tokens that leak into decoded output (end of turn, end of sequence, tool-call prefixes)
 * and are never part of the visible text.
 */
export const CONTROL_TOKENS: readonly string[] = [
  '<|python_tag|>',
  '<|python_start|>',
  '<|python_end|>',
  '<|tool_call_start|>',
  '<|tool_call_end|>',
  '<|eom_id|>',
  '<|eot_id|>',
  '<|end_of_text|>',
  '<|im_end|>',
  '<|endoftext|>',
  '<|end|>',
  '<|return|>',
  '<seed:eos>',
  '<|call|>',
  '<｜end▁of▁sentence｜>',
  '</s>',
]

/** Any reasoning opener or closer; one regex scan instead of one search per tag. */
const ANY_REASONING_TAG = new RegExp(REASONING_TAGS.flat().map((tag) => tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
const CLOSER_OF = new Map(REASONING_TAGS.map(([open, close]) => [open, close]))
/** Every reasoning tag holds `hink` or `HINK`: two native searches rule most outputs out before the regex runs. */
const TAGS_HOLD_THINK = REASONING_TAGS.flat().every((tag) => tag.includes('hink') || tag.includes('HINK'))

/**
 * Finds reasoning blocks (`<think>…</think>`, `[THINK]…[/THINK]` and the like). An unclosed
 * opener runs to the end of the output; a closer with no opener before it (chat templates that
 * put `<think>` in the prompt) makes everything before it reasoning. Linear: one regex scan for
 * the tags, one `indexOf` per block for its closer.
 */
export function findReasoningSpans(raw: string): Span[] {
  const spans: Span[] = []
  if (TAGS_HOLD_THINK && !raw.includes('hink') && !raw.includes('HINK')) return spans
  const pattern = ANY_REASONING_TAG
  pattern.lastIndex = 0
  for (let match = pattern.exec(raw); match !== null; match = pattern.exec(raw)) {
    const tag = match[0]
    const close = CLOSER_OF.get(tag)
    if (close !== undefined) {
      const closeAt = raw.indexOf(close, match.index + tag.length)
      const end = closeAt < 0 ? raw.length : closeAt + close.length
      spans.push({ start: match.index, end })
      pattern.lastIndex = end
    } else if (spans.length === 0) {
      spans.push({ start: 0, end: match.index + tag.length })
    }
  }
  return spans
}

/** The reasoning text of `spans` (the blocks without their tags), blocks separated by blank lines. */
export function reasoningText(raw: string, spans: readonly Span[]): string {
  const pieces: string[] = []
  for (const span of spans) {
    let text = raw.slice(span.start, span.end)
    for (const [open, close] of REASONING_TAGS) {
      if (text.startsWith(open)) text = text.slice(open.length)
      if (text.endsWith(close)) text = text.slice(0, -close.length)
    }
    const trimmed = text.trim()
    if (trimmed !== '') pieces.push(trimmed)
  }
  return pieces.join('\n\n')
}

/** An output's reasoning blocks and its view with them blanked. */
export interface ReasoningView {
  readonly spans: readonly Span[]
  readonly view: string
}

// Detection and then the chosen protocol's parse look at the same output: one entry is enough,
// and comparing the same string object is O(1).
let lastRaw: string | undefined
let lastView: ReasoningView | undefined

/** {@link findReasoningSpans} and {@link blank} of `raw`, computed once per output. */
export function reasoningView(raw: string): ReasoningView {
  if (lastView === undefined || lastRaw !== raw) {
    const spans = findReasoningSpans(raw)
    lastView = { spans, view: blank(raw, spans) }
    lastRaw = raw
  }
  return lastView
}

/** Replaces the given ranges with spaces, keeping every offset the same. */
export function blank(raw: string, spans: readonly Span[]): string {
  if (spans.length === 0) return raw
  let out = ''
  let pos = 0
  for (const span of spans) {
    out += raw.slice(pos, span.start) + ' '.repeat(span.end - span.start)
    pos = span.end
  }
  return out + raw.slice(pos)
}

const TOKENS_START_WITH_LT = CONTROL_TOKENS.every((token) => token.startsWith('<'))

/** Removes control tokens from a piece of visible text. */
export function stripControlTokens(text: string): string {
  // Text without '<' (most of it) cannot hold a token: one search instead of one per token.
  if (TOKENS_START_WITH_LT && !text.includes('<')) return text
  let out = text
  for (const token of CONTROL_TOKENS) if (out.includes(token)) out = out.split(token).join('')
  return out
}

/**
 * Builds one {@link ParseResult}. `view` is the raw output with reasoning blanked out, so scanners
 * that read it cannot find calls inside reasoning while every offset still points into `raw`.
 */
export class ParseBuilder {
  /** The raw output with reasoning blocks replaced by spaces (same length, same offsets). */
  readonly view: string
  readonly calls: ParsedCall[] = []
  readonly repairs: Repair[] = []
  private readonly listed: ParseError[] = []
  /** Errors past {@link MAX_LISTED_ERRORS}, counted but not built. */
  private unlisted = 0
  /** How many unlisted errors the `more_errors` entry at the end of {@link listed} counts. */
  private summarised = 0
  private readonly consumed: Span[] = []
  /** The consumed range being extended: adjacent markup is one span, not one per marker. */
  private openStart = -1
  private openEnd = -1
  private readonly reasoning: readonly Span[]
  private textCache: string | undefined

  constructor(
    readonly raw: string,
    readonly protocol: string,
  ) {
    const { spans, view } = reasoningView(raw)
    this.view = view
    this.reasoning = spans
    this.consumed.push(...spans)
  }

  /** Marks a range as markup (a call, a marker, a fence) so it is not part of the text. */
  consume(start: number, end: number): void {
    if (end <= start) return
    // Failed markers one after another (`[TOOL:f[TOOL:f…`) are consumed back to back: one span.
    if (start >= this.openStart && start <= this.openEnd) this.openEnd = Math.max(this.openEnd, end)
    else {
      if (this.openStart >= 0) this.consumed.push({ start: this.openStart, end: this.openEnd })
      this.openStart = start
      this.openEnd = end
    }
    this.textCache = undefined
  }

  addCall(call: ParsedCall): void {
    this.calls.push(call)
  }

  /** A repair: `text` is its English, or its English with its phrase (see `parseSaid`). */
  addRepair(code: string, text: string | Told, span?: Span): void {
    this.repairs.push(entry(code, text, span))
  }

  /**
   * An error: `text` is its English, or its English with its phrase (see `parseSaid`), or a
   * function that gives it, called only when the error is listed (past
   * {@link MAX_LISTED_ERRORS} it is only counted). Returns the entry, or `undefined` when it was only counted.
   */
  addError(code: string, text: string | Told | (() => Told), span?: Span): ParseError | undefined {
    if (this.listed.length - (this.summarised > 0 ? 1 : 0) >= MAX_LISTED_ERRORS) {
      this.unlisted++
      return undefined
    }
    const error = entry(code, typeof text === 'function' ? text() : text, span)
    this.listed.push(error)
    return error
  }

  /**
   * The errors: the first {@link MAX_LISTED_ERRORS}, then, when there were more, one `more_errors`
   * entry that counts the rest.
   */
  get errors(): ParseError[] {
    if (this.unlisted !== this.summarised) {
      if (this.summarised > 0) this.listed.pop()
      this.listed.push(entry('more_errors', parseSaid('moreErrors', { count: this.unlisted, max: MAX_LISTED_ERRORS }), undefined))
      this.summarised = this.unlisted
    }
    return this.listed
  }

  /** The visible text: everything not consumed, without control tokens, each piece trimmed. */
  text(): string {
    // Scanners ask for the text to decide on repairs and then the result asks again: build it once.
    if (this.textCache !== undefined) return this.textCache
    const spans = this.openStart < 0 ? [...this.consumed] : [...this.consumed, { start: this.openStart, end: this.openEnd }]
    spans.sort((a, b) => a.start - b.start)
    const pieces: string[] = []
    let pos = 0
    // Each gap between consumed spans (and the tail after the last) is a piece of text.
    for (let index = 0; index <= spans.length; index++) {
      const span = spans[index]
      const end = span ? span.start : this.raw.length
      if (end > pos) {
        const piece = stripControlTokens(this.raw.slice(pos, end)).trim()
        if (piece !== '') pieces.push(piece)
      }
      if (span) pos = Math.max(pos, span.end)
    }
    this.textCache = pieces.join('\n')
    return this.textCache
  }

  result(): ParseResult {
    const result: ParseResult = { protocol: this.protocol, calls: this.calls, text: this.text(), repairs: this.repairs, errors: this.errors }
    if (this.reasoning.length > 0) {
      const reasoning = reasoningText(this.raw, this.reasoning)
      if (reasoning !== '') result.reasoning = reasoning
    }
    return result
  }
}

/** Offset of the first non-whitespace character at or after `pos` (or `text.length`). */
export function skipSpace(text: string, pos: number): number {
  let i = pos
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break
    i++
  }
  return i
}

/** A text with, when it has one, its phrase (a repair or error being passed on, or `parseSaid`). */
type Told = { message: string; phrase?: Phrase | undefined }

/**
 * A repair or error: `{ code, message, phrase?, span? }`, in that key order. Built without
 * spreads: an output of broken markers can hold a hundred thousand errors.
 */
function entry(code: string, text: string | Told, span: Span | undefined): { code: string; message: string; phrase?: Phrase; span?: Span } {
  const out: { code: string; message: string; phrase?: Phrase; span?: Span } = { code, message: typeof text === 'string' ? text : text.message }
  if (typeof text !== 'string' && text.phrase) out.phrase = text.phrase
  if (span) out.span = span
  return out
}

