import { afterEach, describe, expect, it } from 'vitest'
import { createLogImportHost } from '../../sandbox/log-import-host'
import { createNodeSandbox } from '../../sandbox/node-sandbox'
import { inProcessImportWorker } from '../../test/in-process-import-worker'
import { createI18n } from './index'
import { coreText, translate } from './text'
import { createPlayground, type Playground } from '../../store/playground'
import { memoryStorage } from '../../store/storage'

const open: Playground[] = []
afterEach(() => open.splice(0).forEach((pg) => pg.dispose()))

function playground(): Playground {
  const pg = createPlayground({
    createSandbox: createNodeSandbox,
    createImportHost: () => createLogImportHost(inProcessImportWorker),
    clock: { setTimeout: () => 0, clearTimeout: () => undefined },
    storage: memoryStorage(),
    now: () => new Date('2026-01-02T03:04:05Z'),
  })
  open.push(pg)
  return pg
}

const file = (name: string, body: string | Uint8Array<ArrayBuffer>) => new File([body], name, { type: 'application/json' })
const ws = (extra: Record<string, unknown>) => JSON.stringify({ format: 'toolstep.workspace', version: 1, tools: '', model: '', settings: {}, input: '', ...extra })
const session = (extra: Record<string, unknown>) => JSON.stringify({ format: 'toolstep.session', version: 1, workspace: null, events: [], ...extra })

/** Prose left in English (two words, the second lower-case) once what stays in every language (file names, JSON paths, identifiers, quoted values, product names) is taken out. */
const englishProse = (text: string) => text.replace(/"[^"]*"|'[^']*'|[\w.\-[\]]+\.json|\b(?:Toolstep|JSON|UTF-8|UTF-16|undefined|string|object|version|tools|events|workspace|settings|protocol|maxSteps|type|seq|span|trace)\b|[\w[\].]+：/g, '').match(/\b[A-Za-z]{3,} [a-z]{2,}\b/g) ?? []

// [file, its bytes, what the English says (in part)]
const CASES: [string, string | Uint8Array<ArrayBuffer>, string][] = [
  ['cut.json', '{"format": "toolstep.workspace", ', 'cut.json: Not valid JSON: Expected double-quoted property name'],
  ['newer.json', ws({ version: 2, settings: { future: true } }), 'newer.json: This workspace file is format version 2; this Toolstep reads version 1.'],
  ['newer-session.json', session({ version: 3 }), 'newer-session.json: This session file is format version 3; this Toolstep reads version 1.'],
  ['no-tools.json', ws({ tools: 3 }), 'no-tools.json: Not a Toolstep workspace: tools: Invalid input: expected string, received number'],
  ['bad-event.json', session({ events: [{ seq: 0, at: 0, type: 'nope' }] }), 'bad-event.json: Not a Toolstep session: events[0].type'],
  ['binary.json', new Uint8Array([0x7b, 0x00, 0xff, 0xfe, 0x00, 0x01]), 'binary.json: The file cannot be opened: it is not UTF-8 text'],
  ['empty.json', '', 'empty.json: The file is empty.'],
  ['notes.json', '{"hello": 1}', 'notes.json: Not a recognised log'],
  // Over the size read in one piece: the worker recognises the session and hands it back to be read as one.
  ['big.json', session({ version: 2, pad: 'x'.repeat(300_000) }), 'big.json: This session file is format version 2'],
]

describe('a workspace or session file that cannot be read', () => {
  const zh = createI18n('zh-CN').t
  const tw = createI18n('zh-TW').t

  it.each(CASES)('%s: the reason is said in English and in Chinese', async (name, body, english) => {
    const outcome = await playground().importFile(file(name, body))
    expect(outcome.ok).toBe(false)
    expect(outcome.message).toContain(english)
    for (const t of [zh, tw]) {
      const text = translate(t, coreText('store', outcome.phrases))
      expect(text).toContain(name)
      expect(text).toMatch(/[\u4e00-\u9fff]/)
      expect(englishProse(text), text).toEqual([])
    }
  })

  it('a newer format version is said as such, not as the field errors it causes', async () => {
    const outcome = await playground().importFile(file('newer.json', ws({ version: 2, settings: { future: true } })))
    expect(translate(zh, coreText('store', outcome.phrases))).toBe('无法读取 newer.json：该工作区文件的格式版本是 2，而这个 Toolstep 只能读取版本 1。')
  })
})
