import { describe, expect, it } from 'vitest'
import { writeWorkspace, readWorkspace } from '../../core/files'
import { findLesson, lessonWorkspace } from '../../lessons/index'
import { createI18n } from '../i18n/index'
import { translate } from '../i18n/text'
import { MAX_PAYLOAD_BYTES, SHARE_PREFIX, decodeShare, encodeShare, readFragment, withoutSecrets } from './share-link'

const workspace = lessonWorkspace(findLesson('fail-endless-loop')!.workspace)

describe('share links', () => {
  it('round-trips a workspace and a lesson through the fragment, compressed', async () => {
    const fragment = await encodeShare({ workspace, lessonId: 'fail-endless-loop' })
    expect(fragment.startsWith(SHARE_PREFIX)).toBe(true)
    expect(fragment).toMatch(/^#share=[A-Za-z0-9_-]+$/)
    expect(fragment.length).toBeLessThan(JSON.stringify(workspace).length)
    expect(await decodeShare(fragment)).toEqual({ ok: true, payload: { workspace, lessonId: 'fail-endless-loop' } })
  })

  it('keeps non-ASCII code and input intact', async () => {
    const chinese = { ...workspace, input: '巴黎的天气怎么样？', tools: `${workspace.tools}\n// 注释 ✓` }
    const decoded = await decodeShare(await encodeShare({ workspace: chinese }))
    expect(decoded.ok && decoded.payload.workspace.input).toBe('巴黎的天气怎么样？')
    expect(decoded.ok && decoded.payload.workspace.tools.endsWith('// 注释 ✓')).toBe(true)
  })

  it('never carries a secret, even one a later setting adds', async () => {
    const settings = { ...workspace.settings, endpoint: { url: 'http://localhost:1234', apiKey: 'sk-live-123', headers: { Authorization: 'Bearer x' } } }
    const fragment = await encodeShare({ workspace: { ...workspace, settings } as typeof workspace })
    const carried = JSON.stringify(await readFragment(fragment))
    expect(carried).toContain('http://localhost:1234')
    expect(carried).not.toContain('sk-live-123')
    expect(carried).not.toContain('Bearer')
    expect(withoutSecrets({ ...workspace, settings: { ...workspace.settings, a: { token: 1, keep: 2, maxTokens: 3 }, list: [{ password: 'p', x: 1 }] } as typeof workspace.settings }).settings).toMatchObject({ a: { keep: 2, maxTokens: 3 }, list: [{ x: 1 }] })
  })

  it('takes credentials out of URLs in the settings', async () => {
    const settings = { ...workspace.settings, endpoint: { baseUrl: 'https://user:pw@example.test/v1?key=abc&x=1', model: 'm' } }
    const carried = JSON.stringify(await readFragment(await encodeShare({ workspace: { ...workspace, settings } as typeof workspace })))
    expect(carried).toContain('https://example.test/v1?key=REDACTED&x=1')
    expect(carried).not.toContain('pw@')
    expect(carried).not.toContain('abc')
  })

  it('carries code, input and eval cases exactly, even where they mention a token, a password or a secret', async () => {
    const tools = `${workspace.tools}\nconst config = { token: process.env.TOKEN, password: 'x', secret: 1, apiKey: 'k' }\n`
    const cases = [{ id: 'token-check', input: 'Reset my password, my token is abc', outputs: ['{"name":"reset","arguments":{"password":"hunter2","token":"t"}}'], assertions: [{ type: 'tool-args-match', tool: 'reset', arguments: { password: 'hunter2', token: 't', secret: { apiKey: 1 } } }, { type: 'final-answer', contains: 'secret' }] }]
    const shared = { ...workspace, tools, input: 'my password is hunter2', cases } as typeof workspace
    const decoded = await decodeShare(await encodeShare({ workspace: shared }))
    const read = readWorkspace(writeWorkspace(shared))
    expect(read.ok).toBe(true)
    expect(decoded.ok && decoded.payload.workspace).toEqual(read.ok && read.value)
    expect(decoded.ok && decoded.payload.workspace.tools).toBe(tools)
  })

  it('says what is wrong with a damaged, foreign or invalid link, and never throws', async () => {
    expect(await decodeShare('#other=1')).toMatchObject({ ok: false, error: 'not a share link' })
    expect((await decodeShare('#share=!!!')).ok).toBe(false)
    expect((await decodeShare('#share=AAAA')).ok).toBe(false)
    const bad = await encodeShare({ workspace: { ...workspace, settings: { ...workspace.settings, maxSteps: 0 } } })
    const result = await decodeShare(bad)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/maxSteps/)
  })

  it('says what is wrong with a link in the UI language, the English as before', async () => {
    const zh = createI18n('zh-CN').t
    const foreign = await decodeShare('#other=1')
    expect(!foreign.ok && translate(zh, foreign.phrase!)).toBe('这不是分享链接')
    const damaged = await decodeShare('#share=!!!')
    expect(!damaged.ok && damaged.error).toBe('the link holds characters that are not base64url')
    expect(!damaged.ok && translate(zh, damaged.phrase!)).toBe('链接里有不属于 base64url 的字符')
    const invalid = await decodeShare(await encodeShare({ workspace: { ...workspace, settings: { ...workspace.settings, maxSteps: 0 } } }))
    expect(!invalid.ok && translate(zh, invalid.phrase!)).toMatch(/^不是 Toolstep 工作区：.*maxSteps/)
  })

  it('refuses a link that inflates past the payload limit', async () => {
    const huge = { ...workspace, input: 'a'.repeat(MAX_PAYLOAD_BYTES + 10) }
    const fragment = await encodeShare({ workspace: huge })
    expect(fragment.length).toBeLessThan(20_000) // repetitive text compresses well…
    const result = await decodeShare(fragment)
    expect(!result.ok && result.error).toMatch(/larger than/) // …but is not inflated without bound
  })

  it('decodes to a workspace the workspace file reader accepts', async () => {
    const decoded = await decodeShare(await encodeShare({ workspace }))
    expect(decoded.ok && readWorkspace(writeWorkspace(decoded.payload.workspace)).ok).toBe(true)
  })
})
