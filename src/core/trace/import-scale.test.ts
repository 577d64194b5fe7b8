/**
 * Big logs: a few megabytes built in memory must import in one linear pass. No timing
 * assertions (machines differ; benches measure speed); these catch quadratic blowups, which
 * would make the tests time out, and check progress reporting.
 */
import { describe, expect, it } from 'vitest'
import { importLog, importLogChunked, importLogIncremental } from './import-log'
import { summarize } from './summarize'

/** A gateway JSONL log: `conversations` conversations of `turns` tool turns each, their lines interleaved round-robin. */
function gatewayLog(conversations: number, turns: number): string {
  const histories = Array.from({ length: conversations }, (_, index) => [
    { role: 'system', content: 'You are a support agent. Use the tools to look up orders and answer briefly.' },
    { role: 'user', content: `Where is my order #${10_000 + index}? It was due last week and I need it for a trip.` },
  ] as Record<string, unknown>[])
  const lines: string[] = []
  for (let turn = 0; turn <= turns; turn++) {
    histories.forEach((history, index) => {
      const id = `call_${index}_${turn}`
      const reply =
        turn < turns
          ? { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'lookup_order', arguments: JSON.stringify({ order_id: 10_000 + index, page: turn }) } }] }
          : { role: 'assistant', content: 'Your order ships tomorrow.' }
      lines.push(JSON.stringify({ request: { model: 'gpt-4o-mini', messages: history }, response: { id: `chatcmpl-${index}-${turn}`, choices: [{ index: 0, message: reply, finish_reason: turn < turns ? 'tool_calls' : 'stop' }] } }))
      history.push(reply, ...(turn < turns ? [{ role: 'tool', tool_call_id: id, content: JSON.stringify({ status: 'in transit', hub: 'Lyon', eta: '2025-01-0' + ((turn % 9) + 1) }) }] : []))
    })
  }
  return lines.join('\n')
}

describe('importing big logs', () => {
  const text = gatewayLog(1500, 3)

  it('joins a ~5 MB interleaved gateway log into its conversations', () => {
    expect(text.length).toBeGreaterThan(4_000_000)
    const result = importLog(text)
    if (!result.ok) throw new Error(result.error)
    expect(result.format).toBe('openai-jsonl')
    expect(result.conversations).toHaveLength(1500)
    expect(result.conversations.every((conversation) => conversation.messages.length === 9)).toBe(true)
    expect(summarize(result.conversations).anomalies).toEqual([])
  })

  it('reads a ~5 MB list of conversation records and Anthropic JSONL', () => {
    const record = (index: number) => ({
      id: `c${index}`,
      messages: [
        { role: 'user', content: `Question ${index}: ${'lorem ipsum '.repeat(20)}` },
        ...Array.from({ length: 6 }, (_, turn) => [
          { role: 'assistant', content: null, tool_calls: [{ id: `t${turn}`, type: 'function', function: { name: 'search', arguments: `{"q":"${index}-${turn}"}` } }] },
          { role: 'tool', tool_call_id: `t${turn}`, content: 'result '.repeat(10) },
        ]).flat(),
      ],
    })
    const list = JSON.stringify(Array.from({ length: 3000 }, (_, index) => record(index)))
    expect(list.length).toBeGreaterThan(4_000_000)
    const result = importLog(list)
    expect(result.ok && result.conversations.length).toBe(3000)

    const anthropic = Array.from({ length: 4000 }, (_, index) =>
      JSON.stringify({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: `Question ${index}: ${'lorem ipsum '.repeat(40)}` },
          { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'search', input: { q: String(index) } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: 'result '.repeat(40) }] },
        ],
      }),
    ).join('\n')
    const imported = importLog(anthropic)
    expect(imported.ok && [imported.format, imported.conversations.length]).toEqual(['anthropic-messages', 4000])
  })

  it('reports progress from 0 to 1 and gives the same result as importLog', async () => {
    const small = gatewayLog(300, 2)
    const fractions: number[] = []
    const pauses: number[] = []
    const chunked = await importLogChunked(small, { onProgress: (fraction) => fractions.push(fraction), pause: () => Promise.resolve(void pauses.push(1)), batchSize: 50 })
    expect(chunked).toEqual(importLog(small))
    expect(fractions.length).toBeGreaterThan(2)
    expect(fractions.at(-1)).toBe(1)
    expect(fractions.every((fraction, index) => fraction >= 0 && fraction <= 1 && (index === 0 || fraction >= fractions[index - 1]!))).toBe(true)
    expect(pauses.length).toBeGreaterThan(0)

    const steps = importLogIncremental(small)
    let step = steps.next()
    let yields = 0
    while (!step.done) {
      yields++
      step = steps.next()
    }
    expect(yields).toBeGreaterThan(300)
    expect(step.value).toEqual(chunked)
  })
})
