/**
 * Input nested 100 000 levels deep at every public entry of core that reads or writes JSON values:
 * parse, render, validate, replay import and the streamed-arguments join. Each answers with a clear
 * error at a documented limit (or reads the value), never with the engine's stack overflow.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from './messages'
import { protocols } from './protocols'
import { readCallObject } from './protocols/shared/call-object'
import { importLog } from './trace'
import { MAX_JSON_DEPTH } from './util/json-walk'
import { prepareArguments } from './validation/prepare-arguments'
import { validateArguments } from './validation/validate-arguments'
import { repeatsArguments } from './wire/stream-arguments'
import { readSession, writeSession } from './files/session-file'
import type { SessionEvent } from './loop/events'
import { jsonText } from './util/json-walk'
import type { JsonSchema, ToolSpec } from './tools/types'

const DEPTH = 100_000

/** `{"a": [{"a": [… 1 …]}]}`, `depth` levels of objects and arrays. */
function nested(depth: number): JsonValue {
  let value: JsonValue = 1
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

/** The same as text, built without `JSON.stringify` (which itself overflows at this depth). */
function nestedText(depth: number): string {
  let open = ''
  let close = ''
  for (let level = depth - 1; level >= 0; level--) {
    open += level % 2 === 0 ? '[' : '{"a":'
    close = (level % 2 === 0 ? ']' : '}') + close
  }
  return `${open}1${close}`
}

describe('100 000 levels deep', () => {
  it('every parser reads a deep call without throwing and says the arguments are too deep', () => {
    const raw = `{"tool": "f", "arguments": {"x": ${nestedText(DEPTH)}}}`
    for (const protocol of protocols) {
      const result = protocol.parse(raw)
      expect(result.calls, protocol.id).toEqual([])
    }
    expect(protocols.find((protocol) => protocol.id === 'json')?.parse(raw).errors.map((error) => error.message).join(' ')).toContain(`${MAX_JSON_DEPTH}`)
  })

  it('a call wrapped in 100 000 {"function": …} levels is read without recursion, the outermost id kept', () => {
    let value: JsonValue = { name: 'get_weather', arguments: { city: 'Paris' } }
    for (let level = 0; level < DEPTH; level++) value = { function: value, id: `call_${level}` }
    const reading = readCallObject('', value, undefined, 'prose')
    expect(reading.kind).toBe('call')
    if (reading.kind === 'call') {
      expect(reading.call.name).toBe('get_weather')
      expect(reading.call.id).toBe(`call_${DEPTH - 1}`)
    }
  })

  it('pythonic renders deep arguments without recursion', () => {
    const pythonic = protocols.find((protocol) => protocol.id === 'pythonic')
    const text = pythonic?.render({ calls: [{ name: 'f', arguments: { x: nested(DEPTH) } }] }) ?? ''
    expect(text.startsWith('[f(x={"a": [{"a": [')).toBe(true)
    expect(text.length).toBeGreaterThan(DEPTH * 3)
    expect(pythonic?.render({ calls: [{ name: 'f', arguments: { a: [1, { b: null, c: true }], d: 'x' } }] })).toBe('[f(a=[1, {"b": None, "c": True}], d="x")]')
  })

  it('validation refuses a deep schema and deep arguments with a sentence naming the limit', () => {
    let schema: JsonSchema = { type: 'object' }
    for (let level = 0; level < DEPTH; level++) schema = { type: 'object', properties: { a: schema } }
    const deepSchema: ToolSpec = { name: 'deep', description: 'Deep.', inputSchema: schema }
    expect(validateArguments(deepSchema, { a: 1 })).toEqual([`the input schema of tool "deep" is invalid (it is nested deeper than ${MAX_JSON_DEPTH} levels), so its arguments cannot be checked`])

    // A recursive schema walks the arguments as deep as they go.
    const tree: ToolSpec = { name: 'tree', description: 'A tree.', inputSchema: { $defs: { node: { type: 'object', properties: { a: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' } }
    let args: { [key: string]: JsonValue } = {}
    for (let level = 0; level < DEPTH; level++) args = { a: args }
    expect(validateArguments(tree, args)).toEqual([`arguments are nested deeper than ${MAX_JSON_DEPTH} levels, more than can be checked`])
    expect(validateArguments(tree, { a: { a: {} } })).toEqual([])
  })

  it('the argument policy reads types through deeply nested anyOf variants', () => {
    let schema: JsonSchema = { type: 'integer' }
    for (let level = 0; level < DEPTH; level++) schema = { anyOf: [schema] }
    const spec: ToolSpec = { name: 'n', description: 'N.', inputSchema: { type: 'object', properties: { n: schema } } }
    const prepared = prepareArguments(spec, { n: '3' }, { unknownArguments: 'drop', coerce: true })
    expect(prepared.arguments).toEqual({ n: 3 })
  })

  it('replay import refuses a deep log with a clear error', () => {
    const result = importLog(nestedText(DEPTH))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toContain('nests deeper than 1000 levels')
  })

  it('replay import refuses JSON text nested 100 000 deep inside a span attribute, naming the field', () => {
    const span = { traceId: 't', spanId: 's', name: 'chat', attributes: { 'gen_ai.input.messages': nestedText(DEPTH) } }
    const result = importLog(JSON.stringify([span]))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toContain('["gen_ai.input.messages"]: expected JSON text nested at most 1000 levels deep')
  })

  it('replay import reads a span whose attribute key has 100 000 dots (kept whole, not 100 000 levels)', () => {
    const messages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }])
    const span = { traceId: 't', spanId: 's', name: 'chat', attributes: { 'gen_ai.input.messages': messages, [`x${'.y'.repeat(DEPTH)}`]: 1, 'a.0.b': 2 } }
    const result = importLog(JSON.stringify([span]))
    expect(result.ok).toBe(true)
  })

  it('a session with deep arguments is exported (and refused on import with the depth limit named)', () => {
    const events = [{ seq: 0, t: 0, type: 'tool.finished', callId: 'c1', name: 'f', arguments: { x: nested(DEPTH) }, result: 'ok', durationMs: 1 }] as unknown as SessionEvent[]
    const text = writeSession(null, events)
    expect(text.length).toBeGreaterThan(DEPTH * 4)
    const read = readSession(text)
    expect(read.ok).toBe(false)
    if (!read.ok) expect(read.error).toContain('1000 levels')
  })

  it('jsonText writes what JSON.stringify writes, at any depth', () => {
    const samples: unknown[] = [
      null, 0, -0, 1.5, 'x "y" \\ 東京 😀', true, [], {}, [[]], { a: {} }, [1, undefined, () => 1, 'z'],
      { a: undefined, b: () => 1, c: [undefined], d: new Date(0), e: { toJSON: () => ({ f: [1, 2] }) }, g: Number.NaN, h: Number.POSITIVE_INFINITY },
      { format: 'toolstep.session', version: 1, workspace: null, events: [{ seq: 0, type: 'session.started', nested: { list: [1, { deep: [[{}], []] }] } }] },
    ]
    for (const sample of samples) for (const indent of [0, 2]) expect(jsonText(sample, indent)).toBe(JSON.stringify(sample, null, indent))
    expect(JSON.parse(jsonText(nested(DEPTH)))).toBeDefined()
  })

  it('a repeated final arguments fragment is recognised whatever its depth', () => {
    const text = `{"x": ${nestedText(DEPTH)}}`
    expect(repeatsArguments(text, text)).toBe(true)
  })
})
