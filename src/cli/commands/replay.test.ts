import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fold } from '../../core/loop/index'
import { exportRequest, importLogFiles, replayEvents } from '../../core/trace/index'
import { fakeIO } from '../../test/fake-io'
import { replayCommand } from './replay'
import { writeWorkspace } from '../../core/files/workspace-file'

const fixturePath = (name: string) => fileURLToPath(new URL(`../../core/__fixtures__/${name}`, import.meta.url))
const dialectPath = (name: string) => fileURLToPath(new URL(`../../core/trace/__fixtures__/${name}`, import.meta.url))
const capturePath = (name = '') => fileURLToPath(new URL(`../../core/trace/__fixtures__/captures/${name}`, import.meta.url))


const small = JSON.stringify([
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"town":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'a', name: 'get_weather', content: 'sunny' },
  { role: 'tool', tool_call_id: 'zzz', name: 'get_weather', content: 'stray' },
  { role: 'assistant', content: 'Sunny.' },
])
const tools = JSON.stringify([{ type: 'function', function: { name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }])

describe('toolstep replay of arguments nested 3 000 levels deep', () => {
  let deep: unknown = {}
  for (let level = 0; level < 3_000; level++) deep = { a: deep }
  const log = (args: string) =>
    JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'deep', arguments: args } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: 'done' },
    ])

  it('reports the arguments as too deep (the documented limit) and replays the rest, in every output', async () => {
    const files = { 'deep.json': log(JSON.stringify(deep)) }
    const summary = fakeIO(files)
    expect(await replayCommand(['deep.json', '--summary', '--json'], summary.io)).toBe(0)
    expect(JSON.parse(summary.stdout())).toMatchObject({
      toolCalls: 1,
      anomalies: [{ conversation: 0, message: 1, code: 'invalid_arguments_json', detail: 'arguments of the call to deep are nested deeper than 512 levels (the limit for arguments)' }],
    })
    for (const flags of [[], ['--json'], ['--summary']]) {
      const fake = fakeIO(files)
      expect(await replayCommand(['deep.json', ...flags], fake.io)).toBe(0)
      expect(fake.stderr()).toBe('')
    }
  })

  it('refuses a log whose own JSON nests deeper than 1 000 levels with a clear error', async () => {
    const fake = fakeIO({ 'deep.json': JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'deep', input: deep }] }] }) })
    expect(await replayCommand(['deep.json'], fake.io)).toBe(2)
    expect(fake.stderr()).toBe('toolstep replay: deep.json: The JSON nests deeper than 1000 levels (objects and arrays inside one another), more than Toolstep reads.\n')
  })
})

describe('toolstep replay', () => {
  it('prints the tau-bench summary as JSON with the contract numbers', async () => {
    const fake = fakeIO()
    expect(await replayCommand([fixturePath('tau-bench-gpt-4o-airline.json'), '--summary', '--json'], fake.io)).toBe(0)
    const summary = JSON.parse(fake.stdout()) as { conversations: number; messages: number; toolCalls: number; toolResults: number; anomalies: { conversation: number; message: number; code: string; detail: string }[] }
    expect(Object.keys(summary)).toEqual(['conversations', 'messages', 'toolCalls', 'toolResults', 'anomalies'])
    expect([summary.conversations, summary.messages, summary.toolCalls, summary.toolResults]).toEqual([200, 5308, 1164, 1164])
    expect(summary.anomalies.filter((anomaly) => anomaly.code === 'duplicate_tool_call_id')).toHaveLength(71)
    expect(new Set(summary.anomalies.map((anomaly) => anomaly.conversation)).size).toBe(49)
    expect(Object.keys(summary.anomalies[0]!)).toEqual(['conversation', 'message', 'code', 'detail'])
    expect(fake.stderr()).toBe('')
  })

  it('checks calls against a tools file', async () => {
    const fake = fakeIO({ 'log.json': small, 'tools.json': tools })
    expect(await replayCommand(['log.json', '--tools', 'tools.json', '--summary', '--json'], fake.io)).toBe(0)
    expect(JSON.parse(fake.stdout())).toEqual({
      conversations: 1,
      messages: 5,
      toolCalls: 1,
      toolResults: 2,
      anomalies: [
        { conversation: 0, message: 1, code: 'schema_violation', detail: 'get_weather: "city" is required' },
        { conversation: 0, message: 3, code: 'orphan_tool_result', detail: 'no earlier call has tool_call_id "zzz"' },
      ],
    })
  })

  it('prints a readable summary', async () => {
    const fake = fakeIO({ 'log.json': small })
    expect(await replayCommand(['log.json', '--summary'], fake.io)).toBe(0)
    expect(fake.stdout()).toBe(
      [
        'openai-messages: 1 conversation, 5 messages, 1 tool call, 2 tool results',
        '1 anomaly in 1 conversation:',
        '  orphan_tool_result         1',
        '',
        'conversation 0 (log), message 3: orphan_tool_result: no earlier call has tool_call_id "zzz"',
        '',
      ].join('\n'),
    )
  })

  it('reads stdin and prints each conversation’s phases, with anomalies under their event', async () => {
    const fake = fakeIO({}, small)
    expect(await replayCommand(['-'], fake.io)).toBe(0)
    const lines = fake.stdout().split('\n')
    expect(lines[0]).toBe('# conversation 0 · conversation 0 · 5 messages')
    expect(lines.some((line) => /^\s+\d+\s+execute\s+Execute · get_weather/.test(line))).toBe(true)
    expect(lines).toContain('                ! orphan_tool_result: no earlier call has tool_call_id "zzz"')
    expect(lines.some((line) => /stop\s+Stop — final_answer/.test(line))).toBe(true)
  })

  it('says on the stop row why a log with only a user message stops with error', async () => {
    const fake = fakeIO({ 'ask.json': JSON.stringify([{ role: 'user', content: 'hi' }]) })
    expect(await replayCommand(['ask.json'], fake.io)).toBe(0)
    expect(fake.stdout()).toMatch(/\n +1 +stop +Stop — error · the log has no assistant turn\n/)
  })

  it('prints events as JSON, optionally for one conversation', async () => {
    const fake = fakeIO()
    expect(await replayCommand([fixturePath('tau-bench-gpt-4o-airline.json'), '--json', '--conversation', 'task-0-trial-0'], fake.io)).toBe(0)
    const out = JSON.parse(fake.stdout()) as { format: string; conversations: { id: string; label: string; events: { type: string; seq: number }[] }[] }
    expect(out.format).toBe('openai-conversations')
    expect(out.conversations.map((conversation) => conversation.id)).toEqual(['task-0-trial-0'])
    expect(out.conversations[0]!.events[0]).toMatchObject({ type: 'session.started', seq: 0 })
    expect(out.conversations[0]!.events.at(-1)).toMatchObject({ type: 'loop.stopped' })
  })

  it('keeps log-wide conversation indexes when one conversation is summarised', async () => {
    const fake = fakeIO()
    expect(await replayCommand([fixturePath('tau-bench-gpt-4o-airline.json'), '--summary', '--json', '--conversation', '3'], fake.io)).toBe(0)
    const summary = JSON.parse(fake.stdout()) as { conversations: number; anomalies: { conversation: number }[] }
    expect(summary.conversations).toBe(1)
    expect(summary.anomalies.length).toBeGreaterThan(0)
    expect(summary.anomalies.every((anomaly) => anomaly.conversation === 3)).toBe(true)
  })

  it('replays a Toolstep session file as recorded', async () => {
    const session = {
      format: 'toolstep.session',
      version: 1,
      workspace: null,
      events: [
        { type: 'session.started', seq: 0, at: 0, source: 'live', protocol: 'json', tools: [], messages: [{ role: 'user', content: 'hi' }], maxSteps: 8 },
        { type: 'model.responded', seq: 1, at: 1, step: 0, raw: 'Hello!', durationMs: 3 },
        { type: 'parse.completed', seq: 2, at: 2, protocol: 'json', calls: [], text: 'Hello!', repairs: [], errors: [] },
        { type: 'backfill.completed', seq: 3, at: 3, messages: [{ role: 'assistant', content: 'Hello!' }] },
        { type: 'loop.stopped', seq: 4, at: 4, reason: 'final_answer' },
      ],
    }
    const fake = fakeIO({ 'session.json': JSON.stringify(session) })
    expect(await replayCommand(['session.json', '--summary', '--json'], fake.io)).toBe(0)
    expect(JSON.parse(fake.stdout())).toEqual({ conversations: 1, messages: 2, toolCalls: 0, toolResults: 0, anomalies: [] })
    const events = fakeIO({ 'session.json': JSON.stringify(session) })
    expect(await replayCommand(['session.json', '--json'], events.io)).toBe(0)
    expect((JSON.parse(events.stdout()) as { conversations: { events: unknown[] }[] }).conversations[0]!.events).toEqual(session.events)
  })

  it('exits 2 with a clear message on usage, read and import errors', async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing LOG/],
      [['log.json', 'b.json'], /cannot read b\.json: ENOENT/],
      [['log.json', '-'], /standard input \(-\) cannot be combined with other LOG files/],
      [['a.json', '--frobnicate'], /unknown option "--frobnicate"/],
      [['a.json', '--format', 'anthropic'], /--format takes one of auto, openai-messages, openai-conversations, .*, toolstep-session \(got "anthropic"\)/],
      [['missing.json'], /cannot read missing\.json: ENOENT/],
      [['broken.json'], /broken\.json: Recognised an OpenAI Chat Completions messages array \(1 message\), but \[0\]\.role: /],
      [['log.json', '--tools', 'bad-tools.json'], /bad-tools\.json: Not a usable tools file: \[0\]\.function\.name/],
      [['log.json', '--conversation', '7'], /no conversation "7" \(the log has 1, indexed from 0\)/],
      [['session.json'], /session\.json: This session file is format version 2; this Toolstep reads version 1\./],
      [['bad-session.json'], /bad-session\.json: Not a Toolstep session: /],
      [['log.json', '--export', 'csv'], /--export takes openai, anthropic, ollama \(got "csv"\)/],
      [['log.json', '--export', 'openai', '--check'], /cannot be combined with --summary or --check/],
      [['log.json', '--trim-window', 'x'], /--trim-window takes a whole number of messages \(got "x"\)/],
    ]
    for (const [argv, message] of cases) {
      const fake = fakeIO({
        'log.json': small,
        'broken.json': '[{"role": "robot"}]',
        'bad-tools.json': '[{"type": "function", "function": {}}]',
        'session.json': '{"format": "toolstep.session", "version": 2}',
        'bad-session.json': '{"format": "toolstep.session", "version": 1}',
      })
      expect(await replayCommand(argv, fake.io), argv.join(' ')).toBe(2)
      expect(fake.stderr(), argv.join(' ')).toMatch(message)
      expect(fake.stdout()).toBe('')
    }
  })

  it('refuses a Toolstep workspace (exit 2), pointing to toolstep run, whatever the key order, BOM or --format', async () => {
    const workspace = writeWorkspace({ tools: 'export {}', model: 'export default () => "hi"', input: 'go', settings: { protocol: 'json', maxSteps: 2, systemPrompt: '' } })
    const reordered = JSON.stringify({ ...JSON.parse(workspace), format: undefined, version: 1 }).replace(/\}$/, ',"format":"toolstep.workspace"}')
    for (const [argv, text] of [
      [['w.json'], workspace],
      [['w.json', '--summary'], `\uFEFF${workspace}`],
      [['w.json', '--format', 'openai-messages'], workspace],
      [['w.json', '--json'], reordered],
    ] as const) {
      const fake = fakeIO({ 'w.json': text })
      expect(await replayCommand([...argv], fake.io), argv.join(' ')).toBe(2)
      expect(fake.stderr(), argv.join(' ')).toContain('w.json is a Toolstep workspace, not a log: open it with `toolstep run w.json`')
      expect(fake.stdout()).toBe('')
    }
    // A folder's workspace is named by its path (`toolstep run` takes a file, not the folder).
    const inFolder = fakeIO({ 'logs/a.json': small, 'logs/w.json': workspace })
    expect(await replayCommand(['logs'], inFolder.io)).toBe(2)
    expect(inFolder.stderr()).toBe('toolstep replay: logs/w.json is a Toolstep workspace, not a log: open it with `toolstep run logs/w.json`.\n')
    const two = fakeIO({ 'logs/v.json': workspace, 'logs/w.json': workspace })
    expect(await replayCommand(['logs'], two.io)).toBe(2)
    expect(two.stderr()).toContain('open it with `toolstep run logs/v.json` (and 1 more file is a workspace; `toolstep run` takes one at a time).')
    const spaced = fakeIO({ 'my logs/w.json': workspace })
    expect(await replayCommand(['my logs/w.json'], spaced.io)).toBe(2)
    expect(spaced.stderr()).toContain("open it with `toolstep run 'my logs/w.json'`")
    // `toolstep run` cannot read stdin.
    const piped = fakeIO({}, workspace)
    expect(await replayCommand(['-'], piped.io)).toBe(2)
    expect(piped.stderr()).toBe('toolstep replay: stdin is a Toolstep workspace, not a log: save it to a file and open that with `toolstep run FILE`.\n')
    // A log that only mentions the format in a message is still a log.
    const mentions = JSON.stringify([{ role: 'user', content: 'what is "toolstep.workspace"?' }, { role: 'assistant', content: 'A file format.' }])
    const fake = fakeIO({ 'log.json': mentions })
    expect(await replayCommand(['log.json', '--summary'], fake.io)).toBe(0)
  })

  it('--check exits 1 and lists anomalies, 0 when the log is clean', async () => {
    const dirty = fakeIO({ 'log.json': small })
    expect(await replayCommand(['log.json', '--check'], dirty.io)).toBe(1)
    expect(dirty.stdout()).toContain('conversation 0 (log), message 3: orphan_tool_result: no earlier call has tool_call_id "zzz"')
    const json = fakeIO({ 'log.json': small })
    expect(await replayCommand(['log.json', '--check', '--json'], json.io)).toBe(1)
    expect((JSON.parse(json.stdout()) as { anomalies: { code: string }[] }).anomalies.map((anomaly) => anomaly.code)).toEqual(['orphan_tool_result'])
    const clean = fakeIO()
    expect(await replayCommand([dialectPath('anthropic-pair.json'), '--check'], clean.io)).toBe(0)
    expect(clean.stdout()).toBe('anthropic-messages: 1 conversation, 6 messages, 2 tool calls, 2 tool results\nNo anomalies.\n')
  })

  it('--check sees finish reasons and the trim window', async () => {
    const lines = [
      { request: { messages: [{ role: 'user', content: 'go' }] }, response: { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }, finish_reason: 'length' }] } },
      { request: { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }, { role: 'tool', tool_call_id: 'a', content: 'bad' }] } },
    ]
    const fake = fakeIO({ 'log.jsonl': lines.map((line) => JSON.stringify(line)).join('\n') })
    expect(await replayCommand(['log.jsonl', '--check', '--json'], fake.io)).toBe(1)
    expect((JSON.parse(fake.stdout()) as { anomalies: { code: string }[] }).anomalies.map((anomaly) => anomaly.code)).toEqual(['truncated_call', 'truncated_call_in_history'])
    const trimmed = fakeIO({ 'log.json': JSON.stringify([{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'a', content: 'ok' }, { role: 'assistant', content: 'done' }]) })
    expect(await replayCommand(['log.json', '--check', '--trim-window', '1'], trimmed.io)).toBe(1)
    expect(trimmed.stdout()).toContain('history_split_by_trim')
  })

  it('--export prints conversations as OpenAI or Anthropic JSON', async () => {
    const openai = fakeIO()
    expect(await replayCommand([dialectPath('anthropic-pair.json'), '--export', 'openai'], openai.io)).toBe(0)
    const exported = JSON.parse(openai.stdout()) as { id: string; label: string; messages: { role: string; tool_calls?: { function: { arguments: string } }[] }[] }[]
    expect(exported.map((conversation) => conversation.id)).toEqual(['0'])
    expect(exported[0]!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant'])
    expect(exported[0]!.messages[2]!.tool_calls![0]!.function.arguments).toBe('{"city":"Paris"}')
    // The export reads back as a list of conversations.
    const back = fakeIO({ 'out.json': openai.stdout() })
    expect(await replayCommand(['out.json', '--check'], back.io)).toBe(0)
    const anthropic = fakeIO({ 'log.json': small })
    expect(await replayCommand(['log.json', '--export', 'anthropic'], anthropic.io)).toBe(0)
    const converted = JSON.parse(anthropic.stdout()) as { system?: string; messages: { role: string; content: unknown }[] }[]
    expect(converted[0]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(converted[0]!.messages[1]!.content).toEqual([{ type: 'tool_use', id: 'a', name: 'get_weather', input: { town: 'Paris' } }])
  })

  it('--export ollama writes native tool_calls with object arguments; a double-encoded log comes out clean for OpenAI', async () => {
    const doubled = JSON.stringify([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify('{"city": "Paris"}') } }] },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'assistant', content: 'Sunny.' },
    ])
    const ollama = fakeIO({ 'log.json': doubled })
    expect(await replayCommand(['log.json', '--export', 'ollama'], ollama.io)).toBe(0)
    const [entry] = JSON.parse(ollama.stdout()) as { messages: unknown[] }[]
    expect(entry!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
      { role: 'tool', content: 'sunny', tool_name: 'get_weather' },
      { role: 'assistant', content: 'Sunny.' },
    ])
    const openai = fakeIO({ 'log.json': doubled })
    expect(await replayCommand(['log.json', '--export=openai'], openai.io)).toBe(0)
    const [body] = JSON.parse(openai.stdout()) as { messages: { tool_calls?: { function: { arguments: string } }[] }[] }[]
    expect(body!.messages[1]!.tool_calls![0]!.function.arguments).toBe('{"city":"Paris"}')
  })

  it('--trim-window N with --export writes the history a safe trim keeps: system prompt, no call apart from its result', async () => {
    const log = JSON.stringify([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Paris and Tokyo?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'w', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'w', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'cloudy' },
      { role: 'user', content: 'and?' },
      { role: 'tool', tool_call_id: 'b', content: 'sunny' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks' },
    ])
    const roles = async (target: string, window: string) => {
      const fake = fakeIO({ 'log.json': log })
      expect(await replayCommand(['log.json', '--export', target, '--trim-window', window], fake.io)).toBe(0)
      return JSON.parse(fake.stdout()) as { system?: string; messages: { role: string; content: unknown }[] }[]
    }
    // The last 4 would start at "and?" and keep the result for b without its call: the trim starts after it.
    const [openai] = await roles('openai', '4')
    expect(openai!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks' },
    ])
    const [anthropic] = await roles('anthropic', '6')
    expect(anthropic!.system).toBe('sys')
    // The last 6 start on the calls, which keep both their results.
    expect(anthropic!.messages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant', 'user'])
    expect(anthropic!.messages[0]!.content).toEqual([
      { type: 'tool_use', id: 'a', name: 'w', input: {} },
      { type: 'tool_use', id: 'b', name: 'w', input: {} },
    ])
    const [all] = await roles('openai', '0')
    expect(all!.messages).toHaveLength(9)
    // The same cut is what --check reports.
    const check = fakeIO({ 'log.json': log })
    expect(await replayCommand(['log.json', '--check', '--json', '--trim-window', '4'], check.io)).toBe(1)
    expect((JSON.parse(check.stdout()) as { anomalies: { code: string; message: number; detail: string }[] }).anomalies).toContainEqual({
      conversation: 0,
      message: 5,
      code: 'history_split_by_trim',
      detail: expect.stringContaining('would start the history at message 4 and keep this tool result and drop the call to w, w (message 2)') as string,
    })
  })

  it('reads several files, or a directory, of recorded bodies as one log: one conversation per capture', async () => {
    const pair = fakeIO()
    const files = ['openai-chat-parallel-tools.1.request.json', 'openai-chat-parallel-tools.1.response.json', 'openai-chat-parallel-tools.2.request.json', 'openai-chat-parallel-tools.2.response.json'].map(capturePath)
    expect(await replayCommand([...files, '--summary', '--json'], pair.io)).toBe(0)
    expect(JSON.parse(pair.stdout())).toMatchObject({ conversations: 1, messages: 6, toolCalls: 2, toolResults: 2, anomalies: [{ conversation: 0, message: 5, code: 'tools_changed' }] })
    const folder = fakeIO()
    expect(await replayCommand([capturePath(), '--summary', '--json'], folder.io)).toBe(0)
    const summary = JSON.parse(folder.stdout()) as { conversations: number; messages: number; toolCalls: number; toolResults: number; anomalies: { code: string }[] }
    expect([summary.conversations, summary.messages, summary.toolCalls, summary.toolResults]).toEqual([12, 35, 14, 5])
    expect([...new Set(summary.anomalies.map((anomaly) => anomaly.code))].sort()).toEqual(['provider_error', 'refusal', 'tools_changed', 'unanswered_tool_call', 'unknown_tool'])
    const text = fakeIO()
    expect(await replayCommand([capturePath(), '--check'], text.io)).toBe(1)
    expect(text.stdout()).toContain('provider_error: the provider reported an error: insufficient_quota: You exceeded your current quota')
  })

  it('--export writes the body the app exports, tools included', async () => {
    const files = ['anthropic-messages-tool-result.request.json', 'anthropic-messages-tool-result.response.json']
    for (const target of ['openai', 'anthropic'] as const) {
      const fake = fakeIO()
      expect(await replayCommand([...files.map(capturePath), '--export', target], fake.io)).toBe(0)
      const [entry] = JSON.parse(fake.stdout()) as ({ id: string; label: string } & Record<string, unknown>)[]
      const { id, label, ...body } = entry!
      expect([id, label]).toEqual(['anthropic-messages-tool-result', 'anthropic-messages-tool-result'])
      // The app's Export: the fold of the replay's events, with the tools the replay offered.
      const imported = importLogFiles(files.map((name) => ({ name, text: readFileSync(capturePath(name), 'utf8') })))
      if (!imported.ok) throw new Error(imported.error)
      const state = fold(replayEvents(imported.conversations[0]!))
      expect(body).toEqual(JSON.parse(JSON.stringify(exportRequest(target, state.conversation.toArray(), state.tools))))
      expect(body['tools']).toHaveLength(1)
    }
  })

  it('--export renames a reused call id in the body and says so on stderr', async () => {
    const call = (a: number) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: `{"a":${a}}` } }] })
    const log = JSON.stringify([{ role: 'user', content: 'hi' }, call(1), { role: 'tool', tool_call_id: 'call_1', content: '1' }, call(2), { role: 'tool', tool_call_id: 'call_1', content: '2' }])
    const fake = fakeIO({}, log)
    expect(await replayCommand(['-', '--export', 'anthropic'], fake.io)).toBe(0)
    const [entry] = JSON.parse(fake.stdout()) as { messages: { content: string | { id?: string; tool_use_id?: string }[] }[] }[]
    const ids = entry!.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.map((block) => block.id ?? block.tool_use_id)))
    expect(ids).toEqual(['call_1', 'call_1', 'call_1_2', 'call_1_2'])
    expect(fake.stderr()).toBe('toolstep replay: conversation 0: The model reused a tool_call_id, which the provider rejects: the export renames it, with its results: call_1 → call_1_2.\n')
  })

  it('--format takes every importer id', async () => {
    const fake = fakeIO()
    expect(await replayCommand([dialectPath('otel-genai.json'), '--format', 'otel-genai', '--summary', '--json'], fake.io)).toBe(0)
    expect(JSON.parse(fake.stdout())).toMatchObject({ conversations: 1, messages: 6, toolCalls: 2, toolResults: 2 })
    const wrong = fakeIO()
    expect(await replayCommand([dialectPath('otel-genai.json'), '--format', 'langfuse'], wrong.io)).toBe(2)
    expect(wrong.stderr()).toMatch(/does not look like Langfuse export \(langfuse\): it looks like OpenTelemetry GenAI spans \(otel-genai\)/)
  })

  it('prints help', async () => {
    const fake = fakeIO()
    expect(await replayCommand(['--help'], fake.io)).toBe(0)
    expect(fake.stdout()).toMatch(/^Usage: toolstep replay LOG/)
  })
})

describe('toolstep replay of a session with an edit', () => {
  // A run whose first output was edited: the model said get_weather, the user made it get_time.
  const raw = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
  const edited = '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>'
  const span = { start: 0, end: edited.length }
  const events = [
    { seq: 0, at: 0, type: 'session.started', source: 'live', protocol: 'xml-tag', tools: [], messages: [{ role: 'user', content: 'Weather?' }], maxSteps: 4 },
    { seq: 1, at: 0, type: 'model.responded', step: 0, raw, durationMs: 1 },
    { seq: 2, at: 0, type: 'edit.applied', target: 'model_output', editedSeq: 1, original: raw, edited },
    { seq: 3, at: 0, type: 'parse.completed', protocol: 'xml-tag', calls: [{ id: 'call_1_0', name: 'get_time', arguments: {}, spans: { call: span } }], text: '', repairs: [], errors: [] },
    { seq: 4, at: 0, type: 'validate.completed', verdicts: [{ callId: 'call_1_0', name: 'get_time', ok: true, problems: [] }] },
    { seq: 5, at: 0, type: 'tool.finished', callId: 'call_1_0', name: 'get_time', result: '12:00', durationMs: 1, timedOut: false, truncated: false },
    { seq: 6, at: 0, type: 'edit.applied', target: 'tool_result', editedSeq: 5, callId: 'call_1_0', name: 'get_time', original: '12:00', edited: '13:00' },
    {
      seq: 7,
      at: 0,
      type: 'backfill.completed',
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1_0', name: 'get_time', arguments: {} }] },
        { role: 'tool', tool_call_id: 'call_1_0', name: 'get_time', content: '13:00' },
      ],
    },
    { seq: 8, at: 0, type: 'model.responded', step: 1, raw: 'It is 13:00.', durationMs: 1 },
    { seq: 9, at: 0, type: 'parse.completed', protocol: 'xml-tag', calls: [], text: 'It is 13:00.', repairs: [], errors: [] },
    { seq: 10, at: 0, type: 'backfill.completed', messages: [{ role: 'assistant', content: 'It is 13:00.' }] },
    { seq: 11, at: 0, type: 'loop.stopped', reason: 'final_answer' },
  ]
  const session = JSON.stringify({ format: 'toolstep.session', version: 1, workspace: null, events })

  it('prints the edits as events of their own, with the original and the edited text', async () => {
    const fake = fakeIO({ 's.json': session })
    expect(await replayCommand(['s.json'], fake.io)).toBe(0)
    expect(fake.stdout()).toContain('edit     Edit · model output — was <tool_call>{"name": "get_weather", "arguments": {"city": "P… → now <tool_call>{"name": "get_time", "arguments": {}}</tool_call>')
    expect(fake.stdout()).toContain('edit     Edit · result of get_time — was 12:00 → now 13:00')
    expect(fake.stderr()).toBe('')
  })

  it('--json gives the events back as recorded, and the fold reaches the edited answer', async () => {
    const fake = fakeIO({ 's.json': session })
    expect(await replayCommand(['s.json', '--json'], fake.io)).toBe(0)
    const out = JSON.parse(fake.stdout()) as { conversations: { events: Parameters<typeof fold>[0] }[] }
    expect(out.conversations[0]!.events).toEqual(events)
    expect(fold(out.conversations[0]!.events).finalAnswer).toBe('It is 13:00.')
    const summary = fakeIO({ 's.json': session })
    expect(await replayCommand(['s.json', '--summary', '--json'], summary.io)).toBe(0)
    expect(JSON.parse(summary.stdout())).toMatchObject({ conversations: 1, toolCalls: 1, toolResults: 1, anomalies: [] })
  })
})
