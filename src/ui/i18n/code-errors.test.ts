import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { beforeAll, describe, expect, it } from 'vitest'
import runtimeSource from 'virtual:toolstep-vm-runtime'
import { createQuickJsRuntime } from '../../sandbox/vm/quickjs-runtime'
import { CODE_ERROR_KEYS, codeErrorText, codeProblemText } from './code-errors'
import { createI18n } from './index'

let module: QuickJSWASMModule
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variant)
})

/** The message the browser sandbox gives for `code` as model.ts (what the code-problem banner shows). */
function problemOf(code: string): string {
  const runtime = createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 32 })
  try {
    const loaded = runtime.load('model.ts', `${code}\nexport default function model() { return 'x' }\n`)
    if (loaded.ok) throw new Error(`${code} loaded`)
    return loaded.error.message
  } finally {
    runtime.dispose()
  }
}

// [code, the engine's English (as QuickJS and sucrase say it), the zh-CN text]
const CASES: [string, string, string][] = [
  ['const a = (1 + )', 'SyntaxError: Unexpected token', 'SyntaxError：此处不应出现这个符号'],
  ['const b = 2 3', 'SyntaxError: Unexpected token, expected ";"', 'SyntaxError：此处不应出现这个符号，应为 ";"'],
  ['let q = `abc', 'SyntaxError: Unterminated template', 'SyntaxError：模板字符串没有结束的反引号'],
  ['eval("1 +* 2")', "SyntaxError: unexpected token in expression: '*'", "SyntaxError：表达式中不应出现 '*'"],
  ['eval("f(1,")', "SyntaxError: unexpected token in expression: ''", 'SyntaxError：代码意外结束（表达式还没写完）'],
  ['eval("a b")', "SyntaxError: expecting ';'", "SyntaxError：此处应为 ';'"],
  ['eval("(1")', "SyntaxError: expecting ')'", "SyntaxError：此处应为 ')'"],
  ['eval("\'abc")', 'SyntaxError: unexpected end of string', 'SyntaxError：字符串没有结束引号'],
  ['const a = 1\nconst a = 2', 'SyntaxError: invalid redefinition of lexical identifier', 'SyntaxError：重复声明同一个 let/const/class 名称'],
  ['foo()', "ReferenceError: 'foo' is not defined", "ReferenceError：'foo' 未定义"],
  ['tdz; let tdz = 1', 'ReferenceError: tdz is not initialized', 'ReferenceError：tdz 在初始化之前被使用'],
  ['const f: any = 1\nf()', 'TypeError: not a function', 'TypeError：被调用的值不是函数'],
  ['const x = undefined as any\nx.y', "TypeError: cannot read property 'y' of undefined", "TypeError：无法读取 undefined 的属性 'y'"],
  ['const x: any = null\nx.y = 1', "TypeError: cannot set property 'y' of null", "TypeError：无法设置 null 的属性 'y'"],
  ['for (const x of 1 as any) {}', 'TypeError: value is not iterable', 'TypeError：该值不可迭代'],
  ['const a = 1\na = 2', "TypeError: 'a' is read-only", "TypeError：不能给 'a' 重新赋值（const 常量）"],
]

describe("the engine's error messages in code problems", () => {
  const zh = createI18n('zh-CN').t
  const tw = createI18n('zh-TW').t
  const en = createI18n('en').t

  it.each(CASES)('%s: QuickJS says it in English, the page in Chinese, with the English on hover', (code, english, chinese) => {
    const message = problemOf(code)
    expect(message).toBe(english)
    expect(codeErrorText(zh, message)).toEqual({ text: chinese, original: english })
    expect(codeErrorText(tw, message).text).not.toBe(english)
    // English shows the engine's own words, unmarked: each template renders the same text.
    expect(codeErrorText(en, message)).toEqual({ text: english })
  })

  it("a message no template knows (the code's own error) stays as it is, marked English", () => {
    const message = problemOf('throw new Error("mine")')
    expect(message).toBe('Error: mine')
    expect(codeErrorText(zh, message)).toEqual({ text: 'Error: mine', lang: 'en' })
    expect(codeErrorText(zh, 'TypeError: something QuickJS rarely says')).toEqual({ text: 'TypeError: something QuickJS rarely says', lang: 'en' })
    expect(codeErrorText(zh, "model.ts has no default export.")).toMatchObject({ lang: 'en' })
  })

  it("the sandbox's own words about model.ts (no default export, top-level await) in Chinese, the English on hover", () => {
    const load = (code: string) => {
      const runtime = createQuickJsRuntime(module, runtimeSource, { memoryLimitMb: 32 })
      try {
        const loaded = runtime.load('model.ts', code)
        return loaded.ok ? '' : loaded.error.message
      } finally {
        runtime.dispose()
      }
    }
    const noDefault = load('export const x = 1')
    expect(codeErrorText(zh, noDefault)).toEqual({ text: 'model.ts 没有默认导出。请添加 `export default function model(ctx: ModelContext) { … }`。', original: noDefault })
    const awaited = load('await 1\nexport default function model() { return "x" }')
    expect(codeErrorText(zh, awaited)).toEqual({ text: '不支持顶层 await；请把它移到工具的 execute 中，或移到 model 函数中', original: awaited })
    expect(codeErrorText(tw, awaited).text).toContain('頂層 await')
    expect(codeErrorText(en, noDefault)).toEqual({ text: noDefault })
    expect(codeErrorText(en, awaited)).toEqual({ text: awaited })
  })

  it("Toolstep's own phrase wins over the message", () => {
    expect(codeProblemText(zh, { message: 'x', phrase: { key: 'importCancelled', params: { file: 'a.json' } } }).text).toContain('a.json')
  })

  it('every template has its text in each language', () => {
    for (const t of [en, zh, tw]) for (const key of CODE_ERROR_KEYS) expect(t(`codeError.${key}`, { error: 'E' }), key).not.toBe(`codeError.${key}`)
  })
})
