/**
 * Builds a text protocol from its scanner and its prompt rules, so each format module holds only
 * what is specific to it.
 */
import type { JsonValue } from '../../messages'
import { renderInstructions } from './instructions'
import { ParseBuilder } from './parse-builder'
import { reparseScanner } from '../stream/reparse-scanner'
import { joinOutput, type FormatDetection, type ParseResult, type Protocol, type StreamScanner } from '../types'

/** What a text format supplies. */
export interface TextProtocolSpec {
  id: string
  label: string
  description: string
  /** Finds the calls in `builder.view` and records them on the builder. */
  collect(builder: ParseBuilder): void
  /** The format's rules for the system prompt, one per line. */
  rules: readonly string[]
  /** Renders one call in the format (for the prompt's example). */
  renderCall(name: string, args: { [key: string]: JsonValue }): string
  example: string
  /** See {@link Protocol.detect}; usually {@link detectMarkers} over the format's special tokens. */
  detect(raw: string, before?: number): FormatDetection | undefined
  /** An incremental streaming reader; formats without one are re-parsed while streaming. */
  createScanner?: () => StreamScanner
}

/** A {@link Protocol} whose `parse` runs `spec.collect` on a fresh builder. */
export function defineTextProtocol(spec: TextProtocolSpec): Protocol {
  const parse = (raw: string): ParseResult => {
    const builder = new ParseBuilder(raw, spec.id)
    spec.collect(builder)
    return builder.result()
  }
  return {
    id: spec.id,
    label: spec.label,
    description: spec.description,
    native: false,
    parse,
    detect: spec.detect,
    createScanner: spec.createScanner ?? reparseScanner(parse),
    instructions: (tools) => renderInstructions(tools, spec.rules, spec.renderCall),
    example: spec.example,
    render: ({ text, calls }) => joinOutput(text, calls.map((call) => spec.renderCall(call.name, call.arguments))),
  }
}
