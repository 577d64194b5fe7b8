/**
 * `messages` as model.ts receives it: an array to every check user code makes, changed only
 * for the code that changes it, and never a copy of a long conversation per request.
 */
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { Message } from '../core/messages'
import { cloneViewsAsArrays, messagesView } from './messages-view'
import { createRequestDecoder } from './request-decoder'
import type { WireModelRequest } from './protocol'

const user = (content: string): Message => Object.freeze({ role: 'user', content })
const conversation = (count: number): Message[] => Array.from({ length: count }, (_, index) => user(`m${index}`))

describe('messagesView', () => {
  it('reads like the array of its messages', () => {
    const held = conversation(5)
    const system: Message = { role: 'system', content: 'sys' }
    const view = messagesView([{ source: [system], from: 0, to: 1 }, { source: held, from: 1, to: 4 }])
    const plain = [system, held[1], held[2], held[3]]
    expect(Array.isArray(view)).toBe(true)
    expect(view instanceof Array).toBe(true)
    expect(view.length).toBe(4)
    expect(view[0]).toBe(system)
    expect(view.at(-1)).toBe(held[3])
    expect(view[4]).toBeUndefined()
    expect([...view]).toEqual(plain)
    expect(JSON.stringify(view)).toBe(JSON.stringify(plain))
    expect(Object.keys(view)).toEqual(['0', '1', '2', '3'])
    expect(view.map((message) => message.content)).toEqual(['sys', 'm1', 'm2', 'm3'])
    expect(view.filter((message) => message.role === 'user')).toHaveLength(3)
    expect(view.slice(-2)).toEqual([held[2], held[3]])
    expect(view.findLast((message) => message.role === 'user')).toBe(held[3])
    expect(2 in view).toBe(true)
    expect('01' in view).toBe(false)
    expect([].concat(view as never)).toEqual(plain)
    expect(Object.entries(view)).toEqual(plain.map((message, index) => [String(index), message]))
  })

  it('is changed only for the code that changes it: the conversation and later views stay as they were', () => {
    const held = conversation(3)
    const first = messagesView([{ source: held, from: 0, to: 3 }])
    first.push({ role: 'system', content: 'added' })
    first.reverse()
    expect(first.map((message) => message.content)).toEqual(['added', 'm2', 'm1', 'm0'])
    expect(held.map((message) => message.content)).toEqual(['m0', 'm1', 'm2'])
    const second = messagesView([{ source: held, from: 0, to: 3 }])
    expect(second.map((message) => message.content)).toEqual(['m0', 'm1', 'm2'])
    second.length = 0
    expect(second).toEqual([])
    expect(held).toHaveLength(3)
    const third = messagesView([{ source: held, from: 0, to: 3 }])
    delete third[0]
    expect(third[0]).toBeUndefined()
    expect(held[0]).toBeDefined()
    const frozen = Object.freeze(messagesView([{ source: held, from: 0, to: 3 }]))
    expect(Object.isFrozen(frozen)).toBe(true)
    expect(frozen.map((message) => message.content)).toEqual(['m0', 'm1', 'm2'])
  })

  it('shows its messages to console.log / util.inspect, before and after a change', () => {
    const held = conversation(2)
    const view = messagesView([{ source: held, from: 0, to: 2 }])
    expect(inspect(view)).toBe(inspect([held[0], held[1]]))
    view.pop()
    expect(inspect(view)).toBe(inspect([held[0]]))
  })

  it('can be cloned with structuredClone once the realm is set up for views', () => {
    cloneViewsAsArrays()
    cloneViewsAsArrays()
    const held = conversation(2)
    const view = messagesView([{ source: held, from: 0, to: 2 }])
    const copy = structuredClone(view)
    expect(Array.isArray(copy)).toBe(true)
    expect(copy).toEqual([{ role: 'user', content: 'm0' }, { role: 'user', content: 'm1' }])
    expect(copy[0]).not.toBe(held[0])
    expect(structuredClone({ a: 1 })).toEqual({ a: 1 })
  })
})

describe('the sandbox side of the request wire', () => {
  const tools = [{ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } }]
  const wire = (step: number, keep: number, append: Message[], to: number): WireModelRequest =>
    ({ step, protocol: 'openai', ...(step === 0 ? { tools } : {}), conversation: { keep, append }, parts: [{ from: 0, to }] }) as WireModelRequest

  it('a request of a long conversation hands over its messages without copying them, and a kept view never changes', () => {
    const decoder = createRequestDecoder()
    const start = conversation(20_000)
    const first = decoder.decode(wire(0, 0, start, 20_000))
    if (!first.ok) throw new Error(first.error)
    const next = decoder.decode(wire(1, 20_000, [user('more')], 20_001))
    if (!next.ok) throw new Error(next.error)
    expect(next.request.messages).toHaveLength(20_001)
    expect(next.request.messages[20_000]).toMatchObject({ content: 'more' })
    // The first view still ends where its request did, and shares the messages.
    expect(first.request.messages).toHaveLength(20_000)
    expect(first.request.messages[19_999]).toBe(next.request.messages[19_999])
    // Going back to an earlier point and on from there leaves earlier views as they were.
    const back = decoder.decode(wire(2, 10, [user('other')], 11))
    if (!back.ok) throw new Error(back.error)
    expect(back.request.messages.map((message) => message.content).slice(-2)).toEqual(['m9', 'other'])
    expect(next.request.messages[10]).toMatchObject({ content: 'm10' })
    expect(next.request.messages).toHaveLength(20_001)
  })

  it('a request out of step with the kept conversation fails, and the next one sent whole succeeds', () => {
    const decoder = createRequestDecoder()
    expect(decoder.decode(wire(0, 0, conversation(2), 2)).ok).toBe(true)
    expect(decoder.decode(wire(1, 5, [], 5))).toMatchObject({ ok: false, error: expect.stringContaining('out of step') })
    expect(decoder.decode(wire(0, 0, conversation(3), 3))).toMatchObject({ ok: true })
  })
})
