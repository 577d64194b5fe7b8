/**
 * The parse phase of one turn: the main protocol, then the fallback chain, or a
 * code-as-action block. Pure.
 */
import { getProtocol } from '../protocols/index'
import type { ParseResult } from '../protocols/types'
import { parsePhrase, parseSaid, semicolonList } from '../util/parse-text'
import type { Phrase } from '../util/phrase'

/** Name of the pseudo tool call a code-as-action block becomes. */
export const RUN_CODE = 'run_code'

/** First ```js / ```ts block (or unlabelled fence holding code) in the output. */
const FENCE = /```(javascript|js|typescript|ts|jsx|tsx)?[ \t]*\r?\n/g

/**
 * Reads a code-as-action output: the first fenced JavaScript/TypeScript block becomes one
 * `run_code` call with `{ code }`; prose around it is the text. `undefined` when there is no block.
 */
export function parseCodeAction(raw: string): ParseResult | undefined {
  FENCE.lastIndex = 0
  const open = FENCE.exec(raw)
  if (!open) return undefined
  const start = open.index + open[0].length
  const close = raw.indexOf('```', start)
  if (close < 0) {
    return { protocol: 'code', calls: [], text: raw.slice(0, open.index).trim(), repairs: [], errors: [{ code: 'truncated', ...parseSaid('codeBlockOpen'), span: { start: open.index, end: raw.length } }] }
  }
  const code = raw.slice(start, close)
  const end = close + 3
  return {
    protocol: 'code',
    calls: [{ name: RUN_CODE, arguments: { code }, rawArguments: code, spans: { call: { start: open.index, end }, arguments: { start, end: close } } }],
    text: `${raw.slice(0, open.index)}${raw.slice(end)}`.trim(),
    repairs: [],
    errors: [],
  }
}

/**
 * Parses with `protocolIds[0]`, then each fallback in turn until one finds a call. The result
 * names the protocol that matched and, when more than one was tried, says so in `detection`.
 * Unknown ids are skipped and reported.
 */
export function parseWithFallback(raw: string, protocolIds: readonly string[]): ParseResult {
  const tried: Phrase[] = []
  let first: ParseResult | undefined
  for (const id of protocolIds) {
    const protocol = getProtocol(id)
    if (!protocol) {
      tried.push(parsePhrase('fallbackUnknown', { id }))
      continue
    }
    const result = protocol.parse(raw)
    first ??= result
    if (result.calls.length > 0) {
      if (tried.length === 0) return result
      tried.push(parsePhrase('fallbackMatched', { id: result.protocol, count: result.calls.length }))
      return withChain(result, tried)
    }
    tried.push(parsePhrase('fallbackNoCall', { id: result.protocol }))
  }
  if (!first) {
    return { protocol: protocolIds[0] ?? 'unknown', calls: [], text: raw, repairs: [], errors: [{ code: 'unknown_protocol', ...parseSaid('unknownProtocol', { id: protocolIds[0] ?? '' }) }] }
  }
  return tried.length > 1 ? withChain(first, tried) : first
}

/** `result` with `detection` saying which formats the fallback chain tried (then the result's own detection). */
function withChain(result: ParseResult, tried: readonly Phrase[]): ParseResult {
  const steps = semicolonList(tried) ?? ''
  // The result's own detection (auto's reason) has no phrase: it is nested as its English.
  const said = result.detection ? parseSaid('fallbackChainThen', { steps, detection: result.detectionPhrase ?? result.detection }) : parseSaid('fallbackChain', { steps })
  return { ...result, detection: said.message, detectionPhrase: said.phrase }
}
