import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readSession } from '../../core/files/session-file'
import { CAPTURE_ANSWER, captureWorkspace } from '../../test/capture-workspace'
import { captureReply, errorReply, startChatServer, textReply, type ChatServer } from '../../test/chat-server'
import { getProtocol } from '../../core/protocols'
import { fakeIO } from '../../test/fake-io'
import { runCommand } from './run'

let server: ChatServer
beforeEach(async () => {
  server = await startChatServer()
})
afterEach(async () => {
  await server.close()
})

describe('toolstep run --endpoint', () => {
  it('runs the loop against the endpoint: parallel streamed calls, tools executed, final answer; key from TOOLSTEP_API_KEY', async () => {
    server.enqueue(captureReply('openai-chat-stream-parallel-tools.response.sse'), captureReply('openai-chat-parallel-tools.2.response.json'))
    const { io, stdout } = fakeIO({ 'w.json': captureWorkspace() }, '', { TOOLSTEP_API_KEY: 'sk-cli', OPENAI_API_KEY: 'sk-other' })
    const code = await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-4o-mini', '--stream', '--json'], io)
    expect(code).toBe(0)
    const session = readSession(stdout())
    expect(session.ok).toBe(true)
    if (!session.ok) return
    const events = session.value.events
    const responded = events.filter((e) => e.type === 'model.responded')
    expect(responded[0]).toMatchObject({ firstTokenMs: expect.any(Number) })
    expect(responded[0]?.type === 'model.responded' && responded[0].chunks?.at(-1)?.data).toBe('[DONE]')
    const results = events.flatMap((e) => (e.type === 'tool.finished' ? [e] : []))
    expect(results.map((e) => ('result' in e ? e.result : undefined))).toEqual(['50 degrees and raining', '70 degrees and sunny'])
    expect(events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'final_answer' })
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-cli', 'Bearer sk-cli'])
    // The second request carries both results, paired by tool_call_id.
    const second = server.requests[1]!.body as { messages: { role: string; tool_call_id?: string }[] }
    expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_fHCjJqt9Pysde6vcJcvbXGBx', 'call_3J9foSw3CUb48lrqIXoTky6U'])
  })

  it('prints the final answer and falls back to OPENAI_API_KEY', async () => {
    server.enqueue(captureReply('openai-chat-parallel-tools.1.response.json'), captureReply('openai-chat-parallel-tools.2.response.json'))
    const { io, stdout } = fakeIO({ 'w.json': captureWorkspace() }, '', { OPENAI_API_KEY: 'sk-openai' })
    expect(await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-4o-mini'], io)).toBe(0)
    expect(stdout()).toContain(`Final answer: ${CAPTURE_ANSWER}`)
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-openai')
  })

  it('shows the provider message of a failure on the decide phase and exits 1', async () => {
    server.enqueue(errorReply(404, 'The model `gpt-9` does not exist or you do not have access to it.'))
    const { io, stdout } = fakeIO({ 'w.json': captureWorkspace() })
    expect(await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'gpt-9'], io)).toBe(1)
    expect(stdout()).toMatch(/decide .*The model `gpt-9` does not exist/)
  })

  it('with xml-tag the calls are parsed out of the streamed content and the system prompt lists the tools', async () => {
    const raw = getProtocol('xml-tag')!.render({ calls: [{ name: 'get_current_weather', arguments: { location: 'Seattle, WA' } }] })
    server.enqueue(textReply(raw, { stream: true }), textReply('It is 50 degrees and raining in Seattle.', { stream: true }))
    const { io, stdout } = fakeIO({ 'w.json': captureWorkspace('xml-tag') })
    expect(await runCommand(['w.json', '--endpoint', server.baseUrl, '--model', 'qwen3', '--stream'], io)).toBe(0)
    expect(stdout()).toMatch(/execute\s+Execute · get_current_weather — ok/)
    expect(stdout()).toMatch(/Decide · turn 1 — \d+ chars · TTFT \d+ ms · total \d+ ms · 7 chunks/)
    expect(stdout()).toContain('Final answer: It is 50 degrees and raining in Seattle.')
    const first = server.requests[0]!.body as { tools?: unknown; messages: { role: string; content: string }[] }
    expect(first.tools).toBeUndefined()
    expect(first.messages[0]!.content).toContain('get_current_weather')
    const second = server.requests[1]!.body as { messages: { role: string; content: string }[] }
    expect(second.messages.at(-1)).toEqual({ role: 'user', content: expect.stringContaining('50 degrees and raining') })
  })

  it('an --endpoint that is not an http(s) URL is a usage error, before any request', async () => {
    for (const url of ['not a url', 'ftp://127.0.0.1/v1', 'http://']) {
      const { io, stderr } = fakeIO({ 'w.json': captureWorkspace() })
      expect(await runCommand(['w.json', '--endpoint', url, '--model', 'm'], io)).toBe(2)
      expect(stderr()).toContain('is not an http:// or https:// URL')
    }
    expect(server.requests).toHaveLength(0)
  })

  it('--endpoint without --model is a usage error', async () => {
    const { io, stderr } = fakeIO({ 'w.json': captureWorkspace() })
    expect(await runCommand(['w.json', '--endpoint', server.baseUrl], io)).toBe(2)
    expect(stderr()).toContain('--endpoint and --model go together')
  })
})
