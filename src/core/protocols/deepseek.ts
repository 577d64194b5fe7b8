/**
 * `deepseek`: DeepSeek V3 / R1 / V3.1 special tokens (fullwidth bars):
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`
 * (V3, R1) and `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1); the tokens are
 * also read when spelled with ASCII `|`, `_` or spaces.
 */
import { readJsonDeferred } from '../json'
import { decodeArguments } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { readNameEnd } from './shared/scan'
import { defineMarkers, detectMarkers } from './shared/detect'
import { nested, parseSaid } from '../util/parse-text'

const CALLS_BEGIN = '<｜tool▁calls▁begin｜>'
const CALLS_END = '<｜tool▁calls▁end｜>'
const CALL_BEGIN = '<｜tool▁call▁begin｜>'
const CALL_END = '<｜tool▁call▁end｜>'
const SEP = '<｜tool▁sep｜>'
/**
 * The special tokens as decoded: the fullwidth bars and `▁` of the tokenizer, but also `|` and
 * `_` or spaces, which quantized builds, other tokenizers and copied logs produce.
 */
type TokenKind = 'callsBegin' | 'callsEnd' | 'callBegin' | 'callEnd' | 'sep'
const TOKEN_PATTERNS: Record<TokenKind, RegExp> = {
  callsBegin: /<[|｜]tool[▁_ ]calls[▁_ ]begin[|｜]>/g,
  callsEnd: /<[|｜]tool[▁_ ]calls[▁_ ]end[|｜]>/g,
  callBegin: /<[|｜]tool[▁_ ]call[▁_ ]begin[|｜]>/g,
  callEnd: /<[|｜]tool[▁_ ]call[▁_ ]end[|｜]>/g,
  sep: /<[|｜]tool[▁_ ]sep[|｜]>/g,
}
const SPELLINGS = ['｜', '|'].flatMap((bar) => ['▁', '_', ' '].flatMap((gap) => [`<${bar}tool${gap}calls${gap}begin${bar}>`, `<${bar}tool${gap}call${gap}begin${bar}>`]))
const MARKERS = defineMarkers(...SPELLINGS)

/** A token found: where, and how long this spelling is. */
interface Token {
  at: number
  length: number
}

/** Finds each kind of token forward, remembering the last answer per kind, so the scan is linear. */
class TokenFinder {
  private readonly cache = new Map<TokenKind, Token | null>()

  constructor(private readonly view: string) {}

  next(kind: TokenKind, from: number): Token | undefined {
    const cached = this.cache.get(kind)
    if (cached === null) return undefined
    if (cached !== undefined && cached.at >= from) return cached
    const pattern = TOKEN_PATTERNS[kind]
    pattern.lastIndex = from
    const match = pattern.exec(this.view)
    const token = match ? { at: match.index, length: match[0].length } : null
    this.cache.set(kind, token)
    return token ?? undefined
  }
}

function consumeAll(builder: ParseBuilder, kind: TokenKind): void {
  const pattern = new RegExp(TOKEN_PATTERNS[kind].source, 'g')
  for (let match = pattern.exec(builder.view); match !== null; match = pattern.exec(builder.view)) builder.consume(match.index, match.index + match[0].length)
}

/** Reads one call whose begin token is at `at`; returns its end. */
function readCall(builder: ParseBuilder, finder: TokenFinder, begin: Token): number {
  const view = builder.view
  const at = begin.at
  const headStart = at + begin.length
  const sepToken = finder.next('sep', headStart)
  const sep = sepToken?.at ?? -1
  const nextBegin = finder.next('callBegin', headStart)?.at ?? -1
  if (sep < 0 || (nextBegin >= 0 && nextBegin < sep)) {
    if (sep < 0 && nextBegin < 0) {
      builder.addError('truncated', () => parseSaid('toolCallCutBefore', { offset: at, marker: SEP }), { start: at, end: view.length })
      return view.length
    }
    builder.addError('invalid_call', () => parseSaid('expectedInToolCall', { marker: SEP, offset: at }), { start: at, end: headStart })
    return headStart
  }
  const head = view.slice(headStart, sep).trim()
  let nameStart: number
  let nameEnd: number
  let argsAt: number
  const sepEnd = sep + (sepToken?.length ?? SEP.length)
  if (head === 'function' || head === '') {
    nameStart = skipSpace(view, sepEnd)
    nameEnd = readNameEnd(view, nameStart)
    argsAt = skipSpace(view, nameEnd)
  } else {
    nameStart = skipSpace(view, headStart)
    nameEnd = nameStart + head.length
    argsAt = skipSpace(view, sepEnd)
  }
  const name = view.slice(nameStart, nameEnd)
  let fenced = false
  if (view.startsWith('```', argsAt)) {
    fenced = true
    let lineEnd = argsAt + 3
    while (lineEnd < view.length && /[A-Za-z0-9_-]/.test(view[lineEnd] ?? '')) lineEnd++
    argsAt = skipSpace(view, lineEnd)
  }
  const read = readJsonDeferred(view, argsAt)
  if (!read.ok) {
    const cut = read.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem: nested(read.render().error) }), { start: argsAt, end: cut ? view.length : read.offset })
    if (cut) return view.length
    const close = finder.next('callEnd', read.offset)
    return close ? close.at + close.length : view.length
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  let end = skipSpace(view, read.end)
  if (fenced && view.startsWith('```', end)) end = skipSpace(view, end + 3)
  const close = finder.next('callEnd', end)
  if (close && close.at === end) end += close.length
  else {
    builder.addRepair('missing_close_tag', parseSaid('callWithoutClose', { name, marker: CALL_END }), { start: read.end, end: read.end })
    end = read.end
  }
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error, decoded.error.span)
    return end
  }
  builder.addCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: at, end }, name: { start: nameStart, end: nameEnd }, arguments: read.spans.span } })
  return end
}

function collect(builder: ParseBuilder): void {
  const view = builder.view
  const finder = new TokenFinder(view)
  consumeAll(builder, 'callsBegin')
  consumeAll(builder, 'callsEnd')
  let pos = 0
  for (;;) {
    const begin = finder.next('callBegin', pos)
    if (!begin) return
    const end = readCall(builder, finder, begin)
    builder.consume(begin.at, end)
    pos = Math.max(end, begin.at + begin.length)
  }
}

/** `deepseek` protocol: `<｜tool▁call▁begin｜>…<｜tool▁sep｜>…<｜tool▁call▁end｜>`. */
export const deepseek = defineTextProtocol({
  id: 'deepseek',
  label: 'DeepSeek tool tokens',
  description: 'DeepSeek V3/R1/V3.1: <｜tool▁call▁begin｜>function<｜tool▁sep｜>name and ```json arguments.',
  collect,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    `To call tools, write ${CALLS_BEGIN}, then for each call ${CALL_BEGIN}function${SEP}<tool name>, a new line, the arguments as JSON in a \`\`\`json fence, and ${CALL_END}; finish with ${CALLS_END}.`,
  ],
  renderCall: (name, args) => `${CALLS_BEGIN}${CALL_BEGIN}function${SEP}${name}\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`${CALL_END}${CALLS_END}`,
  example: `${CALLS_BEGIN}${CALL_BEGIN}function${SEP}get_weather\n\`\`\`json\n{"city": "Paris"}\n\`\`\`${CALL_END}${CALLS_END}`,
})
