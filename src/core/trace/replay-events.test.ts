import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sessionEventSchema, type SessionEvent } from '../loop/events'
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { importLog } from './import-log'
import { replayEvents } from './replay-events'
import { parseOpenAi } from '../protocols/openai'
import { answer, calls, result, user } from '../../test/conversation'

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

/** One line per event: type, the fields that matter, and anomaly codes. */
function outline(events: readonly SessionEvent[]): string[] {
  return events.map((event) => {
    const flags = event.anomalies ? ` !${event.anomalies.map((flag) => flag.code).join(',')}` : ''
    switch (event.type) {
      case 'session.started':
        return `${event.seq} start ${event.source} ${event.protocol} messages=${event.messages.length} maxSteps=${event.maxSteps}${flags}`
      case 'model.responded':
        return `${event.seq} decide step=${event.step}${flags}`
      case 'parse.completed':
        return `${event.seq} parse ${event.calls.map((call) => `${call.name}#${call.id}`).join(' ') || `text=${JSON.stringify(event.text)}`} errors=${event.errors.length}${flags}`
      case 'validate.completed':
        return `${event.seq} validate ${event.verdicts.map((verdict) => `${verdict.name}:${verdict.ok ? 'ok' : verdict.problems.join('|')}`).join(' ')}${flags}`
      case 'tool.finished':
        return `${event.seq} execute ${event.name}#${event.callId} ${event.result ?? `error=${event.error}`}${flags}`
      case 'backfill.completed':
        return `${event.seq} backfill ${event.messages.map((message) => message.role).join(',')}${flags}`
      case 'loop.stopped':
        return `${event.seq} stop ${event.reason}${event.detail ? ` (${event.detail})` : ''}${flags}`
      default:
        return `${event.seq} ${event.type}${flags}`
    }
  })
}

describe('replayEvents', () => {
  const conversation: Message[] = [
    { role: 'system', content: 'You are helpful.' },
    user('Weather in Paris and Rome?'),
    calls(['get_weather', 'a', '{"city":"Paris"}'], ['get_weather', 'b', '{"town":"Rome"}']),
    result('a', 'get_weather', 'sunny'),
    result('b', 'get_weather', 'rain'),
    user('And Oslo?'),
    calls(['get_weather', 'a', '{"city":"Oslo"}']),
    result('a', 'get_weather', 'snow'),
    answer('Sunny, rainy, snowy.'),
  ]

  it('rebuilds the phases of each assistant turn', () => {
    expect(outline(replayEvents({ messages: conversation }, { tools: [weather] }))).toEqual([
      '0 start replay openai messages=2 maxSteps=3',
      '1 decide step=0',
      '2 parse get_weather#a get_weather#b errors=0',
      '3 validate get_weather:ok get_weather:"city" is required !schema_violation',
      '4 execute get_weather#a sunny',
      '5 execute get_weather#b rain',
      '6 backfill assistant,tool,tool,user',
      '7 decide step=1',
      '8 parse get_weather#a errors=0 !duplicate_tool_call_id',
      '9 validate get_weather:ok',
      '10 execute get_weather#a snow',
      '11 backfill assistant,tool',
      '12 decide step=2',
      '13 parse text="Sunny, rainy, snowy." errors=0',
      '14 backfill assistant',
      '15 stop final_answer',
    ])
  })

  it('skips validate without tools and puts fit anomalies on parse', () => {
    const events = replayEvents({ messages: conversation, tools: [] }, { anomalies: [{ message: 2, code: 'unknown_tool', detail: 'x' }] })
    expect(events.some((event) => event.type === 'validate.completed')).toBe(false)
    expect(events[2]).toMatchObject({ type: 'parse.completed', anomalies: [{ code: 'unknown_tool', detail: 'x' }] })
  })

  it('serialises the assistant message in OpenAI wire shape with spans on each call', () => {
    const events = replayEvents({ messages: conversation })
    const responded = events[1]
    const parsed = events[2]
    if (responded?.type !== 'model.responded' || parsed?.type !== 'parse.completed') throw new Error('unexpected events')
    expect(JSON.parse(responded.raw)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"town":"Rome"}' } },
      ],
    })
    const slices = parsed.calls.map((call) => ({
      call: JSON.parse(responded.raw.slice(call.spans.call.start, call.spans.call.end)) as unknown,
      name: responded.raw.slice(call.spans.name!.start, call.spans.name!.end),
      arguments: JSON.parse(`"${responded.raw.slice(call.spans.arguments!.start, call.spans.arguments!.end)}"`) as unknown,
    }))
    expect(slices).toEqual([
      { call: { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }, name: 'get_weather', arguments: '{"city":"Paris"}' },
      { call: { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"town":"Rome"}' } }, name: 'get_weather', arguments: '{"town":"Rome"}' },
    ])
  })

  it('takes a replayed turn from the openai protocol\'s own parse of the wire text, ids as logged', () => {
    const events = replayEvents({ messages: conversation }, { tools: [weather] })
    const started = events[0]
    expect(started).toMatchObject({ type: 'session.started', validationPolicy: 'as-logged' })
    const turns = events.flatMap((event, index) => (event.type === 'model.responded' ? [[event, events[index + 1]] as const] : []))
    expect(turns).toHaveLength(3)
    for (const [responded, parsed] of turns) {
      if (parsed?.type !== 'parse.completed') throw new Error('a parse must follow each decide')
      const protocol = parseOpenAi(responded.raw)
      expect(parsed.calls.map(({ id: _id, ...call }) => call)).toEqual(protocol.calls.map(({ id: _id, ...call }) => call))
      expect({ text: parsed.text, repairs: parsed.repairs, errors: parsed.errors }).toEqual({ text: protocol.text, repairs: protocol.repairs, errors: protocol.errors })
    }
    // The second turn reuses id "a": kept as logged (the anomaly shows it), not renamed as a live run would.
    const second = turns[1]![1]
    if (second?.type !== 'parse.completed') throw new Error('unexpected events')
    expect(second.calls.map((call) => call.id)).toEqual(['a'])
  })

  it('validates as logged: exact names only, arguments as written, no aliases or coercions', () => {
    const aliased: ToolSpec = { ...weather, aliases: ['weather'], inputSchema: { type: 'object', properties: { days: { type: 'integer' } }, required: ['days'] } }
    const events = replayEvents({ messages: [user('?'), calls(['weather', 'a', '{"days":3}'], ['get_weather', 'b', '{"days":"3"}']), result('a', 'weather'), result('b', 'get_weather'), answer('ok')] }, { tools: [aliased] })
    const validated = events.find((event) => event.type === 'validate.completed')
    if (validated?.type !== 'validate.completed') throw new Error('no validate phase')
    expect(validated.verdicts.map((verdict) => ({ name: verdict.name, ok: verdict.ok, resolution: verdict.resolution, coercions: verdict.coercions }))).toEqual([
      { name: 'weather', ok: false, resolution: undefined, coercions: undefined },
      { name: 'get_weather', ok: false, resolution: undefined, coercions: undefined },
    ])
    expect(validated.verdicts[0]!.problems[0]).toMatch(/^Unknown tool "weather"/)
  })

  it('attaches orphan, unanswered and invalid-JSON anomalies where their messages show', () => {
    const messages: Message[] = [result('z', 'f'), user('go'), calls(['f', 'a', '{"x":'], ['g', 'b']), result('a', 'f'), user('?')]
    const events = replayEvents({ messages })
    expect(outline(events)).toEqual([
      '0 start replay openai messages=2 maxSteps=1 !orphan_tool_result',
      '1 decide step=0',
      // The openai protocol's parse, as a live turn shows it: the cut-off call keeps its id beside its error.
      '2 parse f#a g#b errors=1 !invalid_arguments_json,unanswered_tool_call',
      '3 execute f#a ok',
      '4 backfill assistant,tool,user',
      '5 stop error (the log ends after the calls to f, g, without a final answer)',
    ])
    expect(events[2]).toMatchObject({ errors: [{ code: 'truncated', message: expect.stringContaining('The arguments of "f" (a) were cut off') as string, span: expect.objectContaining({ start: expect.any(Number) as number }) as object }] })
    // The error's span is the logged arguments string inside the wire text.
    const responded = events[1]
    const parsed = events[2]
    if (responded?.type !== 'model.responded' || parsed?.type !== 'parse.completed') throw new Error('unexpected events')
    const span = parsed.errors[0]!.span!
    expect(responded.raw.slice(span.start, span.end)).toBe(JSON.stringify('{"x":').slice(1, -1))
  })

  it('stops with an error when there is no assistant turn, and reports tool errors as errors', () => {
    expect(outline(replayEvents({ messages: [user('hi')] }))).toEqual(['0 start replay openai messages=1 maxSteps=1', '1 stop error (the log has no assistant turn)'])
    const failed = replayEvents({ messages: [calls(['f', 'a']), { ...result('a', 'f', 'boom'), isError: true }, answer('sorry')] })
    expect(failed[3]).toMatchObject({ type: 'tool.finished', error: 'boom' })
    expect(failed[3]).not.toHaveProperty('result')
  })

  it('emits only valid session events for every tau-bench conversation', () => {
    const text = readFileSync(fileURLToPath(new URL('../__fixtures__/tau-bench-gpt-4o-airline.json', import.meta.url)), 'utf8')
    const log = importLog(text)
    if (!log.ok) throw new Error(log.error)
    let flagged = 0
    for (const conversation of log.conversations) {
      const events = replayEvents(conversation)
      events.forEach((event, index) => {
        expect(event.seq).toBe(index)
        sessionEventSchema.parse(event)
      })
      // Backfill plus the leading messages rebuild the whole conversation, in order.
      const rebuilt = events.flatMap((event) => (event.type === 'session.started' || event.type === 'backfill.completed' ? event.messages : []))
      expect(rebuilt).toEqual(conversation.messages)
      flagged += events.reduce((sum, event) => sum + (event.anomalies?.length ?? 0), 0)
    }
    expect(flagged).toBe(71)
  })
})
