/**
 * `toolstep run` with parallel tool calls where one blocks the sandbox: only that call is blamed
 * (and retried, when asked), the others are never run twice.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readSession } from '../../core/files/session-file'
import { writeWorkspace } from '../../core/files/workspace-file'
import { DEFAULT_LOOP_SETTINGS } from '../../core/loop/settings'
import { fakeIO } from '../../test/fake-io'
import { runCommand } from './run'

const dir = mkdtempSync(join(tmpdir(), 'toolstep-blame-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Each tool body appends its letter to `log` first thing, so the test counts how often each ran. */
function toolsWith(log: string, first: string): string {
  return `import { tool, z } from 'toolstep'
const fs = (process as any).getBuiltinModule('node:fs')
const mark = (letter: string) => fs.appendFileSync(${JSON.stringify(log)}, letter)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const send_email = tool({ description: '', inputSchema: z.object({}), execute: async () => { ${first} } })
export const spin = tool({ description: '', inputSchema: z.object({}), timeoutMs: 400, execute: async () => { mark('b'); await sleep(20); while (true) {} } })
export const log_line = tool({ description: '', inputSchema: z.object({}), execute: async () => { mark('c'); await sleep(10); return 'logged' } })
`
}

const MODEL = `import type { ModelContext } from 'toolstep'
export default function model({ messages }: ModelContext) {
  const last = messages[messages.length - 1]
  if (last && last.role === 'tool') return { role: 'assistant', content: 'done' }
  const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } })
  return { role: 'assistant', content: null, tool_calls: [call('a1', 'send_email'), call('b2', 'spin'), call('c3', 'log_line')] }
}
`

async function run(name: string, first: string, retryOnTimeout: boolean) {
  const log = join(dir, `${name}.log`)
  writeFileSync(log, '')
  const workspace = writeWorkspace({
    tools: toolsWith(log, first),
    model: MODEL,
    input: 'go',
    settings: { protocol: 'openai', maxSteps: 3, systemPrompt: '', loop: { ...DEFAULT_LOOP_SETTINGS, execution: 'parallel', retryOnTimeout } },
  })
  const { io, stdout } = fakeIO({ 'w.json': workspace })
  await runCommand(['w.json', '--json', '--allow-fs-write', dir], io)
  const session = readSession(stdout())
  if (!session.ok) throw new Error(session.error)
  const finished = new Map(session.value.events.flatMap((event) => (event.type === 'tool.finished' ? [[event.callId, event] as const] : [])))
  const ran = readFileSync(log, 'utf8')
  const count = (letter: string) => ran.split(letter).length - 1
  return { finished, count }
}

describe('toolstep run: one of three parallel calls blocks the sandbox', () => {
  for (const retryOnTimeout of [false, true]) {
    it(`blames the blocking call, runs every other body at most once (retry on timeout ${retryOnTimeout ? 'on' : 'off'})`, async () => {
      // send_email has sent and is still waiting on something slow when spin blocks the sandbox.
      const { finished, count } = await run(`slow-${retryOnTimeout}`, "mark('a'); await sleep(3000); return 'sent'", retryOnTimeout)
      expect(count('a')).toBe(1)
      expect(count('b')).toBe(retryOnTimeout ? 2 : 1)
      expect(count('c')).toBeLessThanOrEqual(1)
      expect(finished.get('b2')).toMatchObject({ timedOut: true, error: expect.stringMatching(/^Tool "spin" timed out after .+ \(limit 400 ms\)/) })
      if (retryOnTimeout) expect(finished.get('b2')).toMatchObject({ attempts: 2, earlierAttempts: [{ timedOut: true }] })
      else expect(finished.get('b2')?.attempts).toBeUndefined()
      for (const id of ['a1', 'c3']) {
        const event = finished.get(id)
        expect(event?.timedOut, id).toBeFalsy()
        expect(event?.attempts, id).toBeUndefined()
        if (event?.error !== undefined) expect(event.error, id).toContain('Interrupted by the timeout of call b2 ("spin")')
      }
      expect(finished.get('a1')?.error).toContain('Interrupted by the timeout of call b2')
    }, 60_000)
  }

  it('keeps the result of a call that finished before the block', async () => {
    const { finished, count } = await run('quick', "mark('a'); return 'sent'", true)
    expect(count('a')).toBe(1)
    expect(finished.get('a1')).toMatchObject({ result: 'sent' })
    expect(finished.get('b2')).toMatchObject({ timedOut: true, attempts: 2 })
  }, 60_000)
})
