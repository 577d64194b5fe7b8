/**
 * `harmony`: OpenAI gpt-oss Harmony messages. Each message is
 * `<|start|>assistant<|channel|>CHANNEL [to=functions.NAME] [<|constrain|>json]<|message|>BODY`
 * ended by `<|end|>`, `<|call|>` or `<|return|>`. A message addressed `to=functions.NAME` is a call
 * with JSON arguments; the `analysis` channel is reasoning; `final` and plain `commentary` are text.
 */
import { readJson } from '../json'
import { decodeArguments } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { ForwardFinder } from './shared/scan'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'
import { nested, parsePhrase, parseSaid } from '../util/parse-text'

const START = '<|start|>'
const CHANNEL = '<|channel|>'
const MESSAGE = '<|message|>'
const MARKERS = defineMarkers(START, CHANNEL)
const TERMINATORS = ['<|end|>', '<|call|>', '<|return|>'] as const

function collect(builder: ParseBuilder): void {
  const view = builder.view
  const finder = new ForwardFinder(view)
  let pos = 0
  for (;;) {
    const channelAt = finder.next(CHANNEL, pos)
    if (channelAt < 0) return
    const startAt = finder.next(START, pos)
    const headerStart = startAt >= 0 && startAt < channelAt ? startAt : channelAt
    const messageAt = finder.next(MESSAGE, channelAt)
    if (messageAt < 0) {
      // A header addressed to a tool whose message never started: the call was cut off.
      const recipient = /to=([^\s<]+)/.exec(view.slice(headerStart))?.[1]
      if (recipient !== undefined) builder.addError('truncated', () => parseSaid('harmonyCutBeforeMessage', { name: recipient.replace(/^functions\./, '') }), { start: headerStart, end: view.length })
      builder.consume(headerStart, view.length)
      return
    }
    const header = view.slice(headerStart, messageAt)
    const bodyStart = messageAt + MESSAGE.length
    let bodyEnd = view.length
    let terminatorLength = 0
    for (const terminator of TERMINATORS) {
      const at = finder.next(terminator, bodyStart)
      if (at >= 0 && at < bodyEnd) {
        bodyEnd = at
        terminatorLength = terminator.length
      }
    }
    const nextStart = finder.next(START, bodyStart)
    if (nextStart >= 0 && nextStart < bodyEnd) {
      bodyEnd = nextStart
      terminatorLength = 0
    }
    const messageEnd = bodyEnd + terminatorLength
    const channel = /<\|channel\|>\s*([A-Za-z_]+)/.exec(header)?.[1] ?? ''
    const recipient = /to=([^\s<]+)/.exec(header)?.[1]
    if (recipient !== undefined) {
      const name = recipient.startsWith('functions.') ? recipient.slice('functions.'.length) : recipient
      const nameStart = headerStart + header.indexOf(recipient) + (recipient.length - name.length)
      const argsAt = skipSpace(view, bodyStart)
      const read = readJson(view, argsAt)
      if (!read.ok || read.end > bodyEnd) {
        const cut = !read.ok && read.error.code === 'truncated'
        const problem = read.ok ? parsePhrase('argsRunPastMessage') : nested(read.error)
        builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem }), { start: argsAt, end: cut ? view.length : bodyEnd })
      } else {
        for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
        const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
        if (decoded.ok) {
          builder.addCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: headerStart, end: messageEnd }, name: { start: nameStart, end: nameStart + name.length }, arguments: read.spans.span } })
        } else {
          builder.addError(decoded.error.code, decoded.error, decoded.error.span)
        }
      }
      builder.consume(headerStart, messageEnd)
    } else if (channel === 'analysis') {
      builder.consume(headerStart, messageEnd)
    } else {
      builder.consume(headerStart, bodyStart)
      builder.consume(bodyEnd, messageEnd)
    }
    pos = Math.max(messageEnd, channelAt + CHANNEL.length)
  }
}

/** `harmony` protocol: gpt-oss `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`. */
export const harmony = defineTextProtocol({
  id: 'harmony',
  label: 'gpt-oss Harmony',
  description: 'gpt-oss Harmony: a commentary message to=functions.name with JSON arguments, ended by <|call|>.',
  collect,
  // A message starts at <|start|> (role header) when it has one, else at its <|channel|>.
  detect: (raw, before) =>
    detectMarkers(raw, MARKERS, before, (scan, at, marker) => {
      if (marker === START && scan.view.slice(at, at + 64).indexOf(CHANNEL) < 0) return undefined
      return { confidence: 0.9, ...detectionReason('detectFoundMarker', { marker, at }) }
    }),
  rules: [
    'To call a tool, write a commentary message addressed to it: <|start|>assistant<|channel|>commentary to=functions.<tool name> <|constrain|>json<|message|>{<arguments>}<|call|>.',
    'Think in the analysis channel; answer the user in the final channel.',
  ],
  renderCall: (name, args) => `<|start|>assistant<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${JSON.stringify(args)}<|call|>`,
  example: '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
})
