/** What every command does with its input bytes: UTF-8 / UTF-16 with a BOM read alike, binary refused. */
import { describe, expect, it } from 'vitest'
import { writeWorkspace } from '../core/files/workspace-file'
import { findExample, type Example } from '../examples/index'
import { parseCommand } from './commands/parse'
import { replayCommand } from './commands/replay'
import { runCommand } from './commands/run'
import { fakeIO } from '../test/fake-io'
import { main, VERSION } from './main'
import { readTextChunks } from './io'

const utf16le = (text: string): Uint8Array => {
  const bytes = [0xff, 0xfe]
  for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8)
  return new Uint8Array(bytes)
}
const utf16be = (text: string): Uint8Array => {
  const bytes = [0xfe, 0xff]
  for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff)
  return new Uint8Array(bytes)
}
const withUtf8Bom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
/** The first bytes of a PNG, then noise with NULs and control bytes. */
const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 256)])

const LOG = JSON.stringify([
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: '18°C' },
  { role: 'assistant', content: 'It is 18°C in Paris.' },
])

describe('CLI input bytes', () => {
  it('parse reads UTF-8, UTF-8 with a BOM and UTF-16 LE/BE with a BOM to the same result', async () => {
    const raw = '{"name":"get_weather","arguments":{"city":"Zürich"}}'
    const results = []
    for (const bytes of [new TextEncoder().encode(raw), withUtf8Bom(raw), utf16le(raw), utf16be(raw)]) {
      const { io, stdout } = fakeIO({ 'out.txt': bytes })
      expect(await parseCommand(['out.txt', '--protocol', 'json'], io)).toBe(0)
      results.push(JSON.parse(stdout()))
    }
    expect(results[0].calls).toEqual([{ name: 'get_weather', arguments: { city: 'Zürich' } }])
    for (const result of results) expect(result).toEqual(results[0])
  })

  it('replay and run read UTF-16LE files with a BOM', async () => {
    const replay = fakeIO({ 'log.json': utf16le(LOG) })
    expect(await replayCommand(['log.json', '--summary', '--json'], replay.io)).toBe(0)
    expect(JSON.parse(replay.stdout())).toMatchObject({ conversations: 1, toolCalls: 1, toolResults: 1 })

    const example = findExample('weather') as Example
    const workspace = writeWorkspace({ tools: example.tools, model: example.model, input: example.input, settings: { protocol: 'openai', maxSteps: 8, systemPrompt: '' } })
    const run = fakeIO({ 'w.json': utf16le(workspace) })
    expect(await runCommand(['w.json'], run.io)).toBe(0)
  })

  it('parse, run and replay refuse a binary file with a clear message and exit 2, printing no bytes', async () => {
    for (const [command, argv] of [
      [parseCommand, ['img.png']],
      [runCommand, ['img.png']],
      [replayCommand, ['img.png', '--summary']],
    ] as const) {
      const { io, stdout, stderr } = fakeIO({ 'img.png': BINARY })
      expect(await command([...argv], io)).toBe(2)
      expect(stdout()).toBe('')
      expect(stderr()).toMatch(/img\.png.*it is not (UTF-8 )?text/)
      expect(stderr()).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/)
    }
  })

  it('parse refuses binary standard input too', async () => {
    const { io, stderr } = fakeIO({}, BINARY)
    expect(await parseCommand(['-'], io)).toBe(2)
    expect(stderr()).toMatch(/it is not (UTF-8 )?text/)
  })

  it('toolstep --version prints the package version', async () => {
    const { io, stdout } = fakeIO()
    expect(await main(['--version'], io)).toBe(0)
    expect(stdout()).toBe(`toolstep ${VERSION}\n`)
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('readTextChunks: an input read as a stream', () => {
  /** An endless stream of `chunk`, counting how many chunks were taken. */
  function endless(chunk: Uint8Array) {
    const taken = { count: 0 }
    const stream = {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          taken.count++
          yield chunk
        }
      },
    }
    return { stream, taken }
  }

  it('refuses an endless binary input (/dev/zero) after its first bytes, not at the end of memory', async () => {
    const { stream, taken } = endless(new Uint8Array(16 * 1024))
    await expect(readTextChunks(stream)).rejects.toThrow(/NUL character at offset 0/)
    expect(taken.count).toBeLessThanOrEqual(4)
  })

  it('refuses an endless text input past its size cap', async () => {
    const { stream, taken } = endless(new TextEncoder().encode('a'.repeat(64 * 1024)))
    await expect(readTextChunks(stream, 1024 * 1024)).rejects.toThrow(/larger than 1 MB/)
    expect(taken.count).toBeLessThanOrEqual(17)
  })

  it('reads text whose first check falls inside a character, in any chunking', async () => {
    const text = 'é'.repeat(40 * 1024) + '{"name":"f"}'
    const bytes = new TextEncoder().encode(text)
    const chunked = (size: number) => ({
      async *[Symbol.asyncIterator]() {
        for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
      },
    })
    for (const size of [1000, 4097, 65_537, bytes.length]) expect(await readTextChunks(chunked(size))).toBe(text)
  })
})
