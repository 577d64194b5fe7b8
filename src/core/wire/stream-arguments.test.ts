import { describe, expect, it } from 'vitest'
import { CompletionAccumulator } from '../endpoint/completion'
import { importLog } from '../trace/import-log'
import { appendArgumentsFragment, repeatsArguments } from './stream-arguments'

const join = (fragments: readonly string[]) => fragments.reduce(appendArgumentsFragment, '')

describe('appendArgumentsFragment', () => {
  it('concatenates ordinary fragments, including ones that look like whole objects mid-way', () => {
    expect(join(['{"city":', ' "Paris"', '}'])).toBe('{"city": "Paris"}')
    // A nested object arriving in one piece is not a repeat: what came before is not complete.
    expect(join(['{"opts": ', '{"a": 1}', '}'])).toBe('{"opts": {"a": 1}}')
    expect(join(['{}'])).toBe('{}')
  })

  it('drops a last fragment that repeats the whole object, by meaning: escapes, spacing and key order aside', () => {
    expect(join(['{"city": "Orl', 'éans"}', '{"city":"Orl\\u00e9ans"}'])).toBe('{"city": "Orléans"}')
    expect(join(['{"a": 1, ', '"b": [1, 2]}', '{ "b": [1,2], "a": 1 }'])).toBe('{"a": 1, "b": [1, 2]}')
    expect(repeatsArguments('{"city": "Orléans"}', '{"city": "Orleans"}')).toBe(false)
  })

  it('keeps a different whole object after a complete one (two objects are junk to report, not to hide)', () => {
    expect(join(['{"a": 1}', '{"a": 2}'])).toBe('{"a": 1}{"a": 2}')
  })
})

describe('streams with a repeated final arguments delta', () => {
  const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })
  const deltas = [
    chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": "Orl' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'éans"}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Orl\\u00e9ans"}' } }] }),
    chunk({}, 'tool_calls'),
  ]

  it('an endpoint stream is read as one call with the arguments once', () => {
    const accumulator = new CompletionAccumulator()
    for (const data of deltas) expect(accumulator.add(data)).toBeNull()
    expect(accumulator.result().toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Orléans"}' }])
  })

  it('an imported stream log gives the call its arguments once', () => {
    const result = importLog(deltas.map((data) => `data: ${data}\n\n`).join('') + 'data: [DONE]\n\n')
    if (!result.ok) throw new Error(result.error)
    expect(result.conversations[0]!.messages[0]).toMatchObject({ tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Orléans' }, rawArguments: '{"city": "Orléans"}' }] })
  })
})
