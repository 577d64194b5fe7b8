/**
 * The CLI sandbox (a child process) against user code that replaces built-ins the sandbox relies
 * on: the child lives on, the call that did it fails naming the tool or file and the built-in,
 * and the next call and run work.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../core/tools/types'
import { ATTACKS, modelWith, toolsWith } from '../test/builtin-attacks'
import { createProcessSandbox } from './node-process-sandbox'
import type { Sandbox } from './sandbox-host'

const spec = (name: string): ToolSpec => ({ name, description: '', inputSchema: {} })
const request = (step: number) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], step, protocol: 'openai' })
const escape = (text: string) => text.replace(/[.()[\]]/g, '\\$&')

let sandbox: Sandbox | undefined
afterEach(() => sandbox?.dispose())

describe.each(ATTACKS)('CLI sandbox: user code that runs `%s`', (attack, change) => {
  it('fails only the tool call, model turn or load that did it, naming it and the built-in; the rest works', async () => {
    sandbox = createProcessSandbox()
    expect(await sandbox.load({ tools: toolsWith(attack), model: modelWith(attack) })).toMatchObject({ ok: true })
    for (const later of [false, true]) {
      expect(await sandbox.execute({ id: 'b', name: 'bad', arguments: { later } }, spec('bad'))).toMatchObject({
        ok: false,
        error: expect.stringMatching(new RegExp(`^Tool "bad" ${escape(change)}\\. The sandbox relies on the built-ins`)),
      })
      expect(await sandbox.execute({ id: 'g', name: 'good', arguments: { items: [1, 2] } }, spec('good'))).toMatchObject({ ok: true, result: '{"doubled":[2,4]}' })
    }
    await expect(sandbox.respond(request(0))).rejects.toThrow(new RegExp(`^model\\.ts ${escape(change)}\\. `))
    expect(await sandbox.respond(request(1))).toMatchObject({ kind: 'text', raw: expect.stringContaining('"tool_calls"') })
    expect(await sandbox.execute({ id: 'g2', name: 'good', arguments: { items: [3] } }, spec('good'))).toMatchObject({ ok: true, result: '{"doubled":[6]}' })

    const topLevel = await sandbox.load({ tools: `;${attack}\n${toolsWith('')}`, model: modelWith('') })
    expect(topLevel).toMatchObject({ ok: false, errors: [{ file: 'tools.ts', message: expect.stringMatching(new RegExp(`^tools\\.ts at its top level ${escape(change)}\\. `)) }] })
    expect(await sandbox.load({ tools: toolsWith(''), model: modelWith('') })).toMatchObject({ ok: true })
    expect(await sandbox.execute({ id: 'g3', name: 'good', arguments: { items: [1] } }, spec('good'))).toMatchObject({ ok: true, result: '{"doubled":[2]}' })
    expect(await sandbox.respond(request(0))).toMatchObject({ kind: 'text', raw: expect.stringContaining('"tool_calls"') })
  }, 30_000)
})

describe('CLI sandbox: built-ins changed outside any call', () => {
  it('puts them back before the next request and reports it as a stray error, blaming no call', async () => {
    const stray: string[] = []
    sandbox = createProcessSandbox({ onStrayError: (message) => stray.push(message) })
    const tools = `${toolsWith('')}
export const later = tool({ description: '', inputSchema: z.object({}), execute: () => { setTimeout(() => { JSON.stringify = () => '{}' }, 1); return 'armed' } })`
    expect(await sandbox.load({ tools })).toMatchObject({ ok: true })
    expect(await sandbox.execute({ id: 'l', name: 'later', arguments: {} }, spec('later'))).toMatchObject({ ok: true, result: 'armed' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await sandbox.execute({ id: 'g', name: 'good', arguments: { items: [1, 2] } }, spec('good'))).toMatchObject({ ok: true, result: '{"doubled":[2,4]}' })
    expect(stray).toEqual([expect.stringContaining('User code running outside any call (a timer or a callback) replaced JSON.stringify')])
  }, 30_000)
})
