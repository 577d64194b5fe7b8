import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import { resolveToolName, unknownToolMessage, type NameMatching } from './resolve-tool'

const spec = (name: string, aliases?: string[]): ToolSpec => ({ name, description: '', inputSchema: {}, ...(aliases ? { aliases } : {}) })
const tools: ToolSpec[] = [spec('get_weather', ['weather_lookup']), spec('calculate'), spec('get_time')]
const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']

describe('resolveToolName', () => {
  it('goes as far as asked: exact, declared alias, then case and separators ignored', () => {
    const at = (name: string, match: NameMatching) => resolveToolName(name, tools, { match })
    expect(at('calculate', 'exact')).toEqual({ spec: tools[1], resolution: 'exact' })
    expect(at('weather_lookup', 'exact')).toBeUndefined()
    expect(at('weather_lookup', 'declared')).toEqual({ spec: tools[0], resolution: 'alias' })
    expect(at('getWeather', 'declared')).toBeUndefined()
    expect(at('getWeather', 'loose')).toEqual({ spec: tools[0], resolution: 'normalized' })
    expect(resolveToolName('Get-Weather', tools)).toEqual({ spec: tools[0], resolution: 'normalized' })
  })

  it('matches fuzzily only when asked, and not on a tie', () => {
    expect(resolveToolName('get_wether', tools)).toBeUndefined()
    expect(resolveToolName('get_wether', tools, { fuzzy: true })).toEqual({ spec: tools[0], resolution: 'fuzzy' })
    expect(resolveToolName('get_tme', [spec('get_time'), spec('get_tma')], { fuzzy: true })).toBeUndefined()
  })

  it('never resolves a name inherited from Object.prototype, at any level', () => {
    for (const name of INHERITED) {
      for (const match of ['exact', 'declared', 'loose'] as const) {
        expect(resolveToolName(name, tools, { match, fuzzy: true })).toBeUndefined()
      }
    }
  })

  it('finds a tool that really is called constructor, and only that one', () => {
    const odd = [spec('constructor'), spec('toString', ['__proto__'])]
    expect(resolveToolName('constructor', odd, { match: 'exact' })?.spec).toBe(odd[0])
    expect(resolveToolName('__proto__', odd, { match: 'declared' })).toEqual({ spec: odd[1], resolution: 'alias' })
    expect(resolveToolName('valueOf', odd)).toBeUndefined()
  })

  it('works on any tool-like list (sandbox tools, logged tool definitions)', () => {
    const loaded = [{ name: 'weather.current', aliases: ['now'], timeoutMs: 10 }]
    expect(resolveToolName('now', loaded, { match: 'declared' })?.spec.timeoutMs).toBe(10)
  })
})

describe('unknownToolMessage', () => {
  it('lists the available tools', () => {
    expect(unknownToolMessage('get_wether', tools)).toBe('Unknown tool "get_wether". Available tools: get_weather, calculate, get_time.')
    expect(unknownToolMessage('say "hi"', tools)).toBe('Unknown tool "say \\"hi\\"". Available tools: get_weather, calculate, get_time.')
  })

  it('says when there are no tools', () => {
    expect(unknownToolMessage('x', [])).toBe('Unknown tool "x". No tools are available.')
  })
})
