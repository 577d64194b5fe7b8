/**
 * *Export → TypeScript loop* and *Export → Vitest test*: one self-contained `.ts` file made from
 * a workspace (Node >= 20, run with `npx tsx FILE`, depending on nothing but zod, and vitest for
 * the test). It holds, in order: the types, `tool()`, Toolstep's own code for the wire format,
 * validation and the endpoint client (bundled, see `scripts/export-kit.ts`), the workspace's
 * tools.ts, its settings, and the loop written out readably. The program asks an
 * OpenAI-compatible endpoint named by environment variables; the test replays a recorded
 * session and asserts the calls made, their results, the stop reason and the final answer.
 *
 * The API key is never written into either file (the program reads it from the environment), nor
 * an extra header that may carry a credential (`Authorization`, `X-Api-Key`, …).
 * Pure: the bundle is passed in (the app and the CLI get it from `virtual:toolstep-export-kit`).
 */
import { jsonText } from '../util/json-walk'
import { redactBaseUrl, type EndpointConfig } from '../endpoint/index'
import { DEFAULT_LOOP_SETTINGS, fold, loopSettings, type SessionEvent, type SettingsInput } from '../loop/index'
import { recordedTurns } from '../files/index'
import { adaptTools, ExportError, topLevelNames } from './adapt-tools'
import { exportPhrase } from './export-text'

export { ExportError } from './adapt-tools'

/** Toolstep's bundled code and the loop's source regions (the `virtual:toolstep-export-kit` module). */
export interface ExportBundle {
  /** Script body for `new Function('require', kit)`, returning the kit. */
  kit: string
  /** Loop source regions by name: `types`, `loop`, `main`, `replay`. */
  parts: Record<string, string>
}

/** What an export is made from. */
export interface ExportInput {
  workspace: { tools: string; input: string; settings: SettingsInput }
  /** The endpoint the program asks by default (overridden by TOOLSTEP_BASE_URL / TOOLSTEP_MODEL). */
  endpoint: EndpointConfig
  bundle: ExportBundle
}

/** Names the exported file declares at its top level; tools.ts must not declare them too. */
const RESERVED = [
  'toolstep', 'toolstepZod', 'tool', 'TOOLS', 'SETTINGS', 'ENDPOINT', 'INPUT', 'RECORDED', 'vitest', 'createInterface',
  'runLoop', 'main', 'executeCall', 'withTimeout', 'errorText', 'askOnTerminal', 'recordedModel', 'fingerprint',
  'JsonValue', 'ToolSpec', 'ToolCall', 'Message', 'ModelOutput', 'ParsedTurn', 'Verdict', 'LoadedTools', 'LoopBehaviour',
  'LoopProgramSettings', 'LoopProgramEndpoint', 'Toolstep', 'StopReason', 'CallRecord', 'LoopRun', 'LoopModel', 'LoopEvent',
  'LoopOptions', 'RecordedTurn', 'ToolDefinition', 'DEFAULT_TOOL_TIMEOUT_MS', 'DECLINED_RESULT', 'FINAL_TURN_NOTICE',
]

const rule = (title: string) => `// ─── ${title} ${'─'.repeat(Math.max(3, 96 - title.length))}`

/** Settings the exported loop does not carry over, when the workspace uses them (named in the file's header). */
function notCarriedOver(settings: ReturnType<typeof loopSettings>, tools: string): string[] {
  const missing: string[] = []
  if (settings.contextWindow > 0) missing.push(`context window (${settings.contextWindow} messages): the whole conversation is sent`)
  if (settings.codeAsAction) missing.push('code-as-action: fenced code is not run')
  if (settings.untrustedWrapping) missing.push('untrusted-result wrapping')
  if (settings.resultShaping === 'summarize') missing.push('summarize(): long results are truncated instead')
  if (settings.faults.length > 0) missing.push('injected faults (a teaching aid)')
  if (/^export[ \t]+(?:async[ \t]+)?(?:function|const)[ \t]+route\b/m.test(tools)) missing.push('the route() hook: every tool is offered at every step')
  return missing
}

/**
 * Extra headers that may carry a credential (`Authorization`, `Cookie`, `X-Api-Key`, a token or
 * secret): like the API key, they stay out of the file, which people commit and share.
 */
const CREDENTIAL_HEADER = /^(?:proxy-)?authorization$|^cookie$|key|token|secret|passw|auth|session/i

/** The extra headers split into those the file may carry and the names of those it must not. */
function splitHeaders(headers: Record<string, string> | undefined): { kept: Record<string, string>; dropped: string[] } {
  const kept: Record<string, string> = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (CREDENTIAL_HEADER.test(name)) dropped.push(name)
    else kept[name] = value
  }
  return { kept, dropped }
}

/** Checks that tools.ts leaves the exported file's own names alone. */
function checkNames(tools: string): void {
  const taken = topLevelNames(tools)
  const clash = RESERVED.filter((name) => taken.has(name) && name !== 'tool')
  if (clash.length > 0) {
    throw new ExportError(exportPhrase('reserved', { names: clash.map((name) => `"${name}"`).join(', '), count: clash.length }))
  }
}

function part(bundle: ExportBundle, name: string): string {
  const text = bundle.parts[name]
  if (text === undefined) throw new ExportError(exportPhrase('noPart', { name }))
  return text
}

/** The body shared by the program and the test: header lines, imports, types, kit, tools, settings, loop. */
function body(input: ExportInput, kind: 'program' | 'test', header: string[]): string {
  const { workspace, endpoint, bundle } = input
  checkNames(workspace.tools)
  const tools = adaptTools(workspace.tools)
  const loop = loopSettings(workspace.settings.loop ?? DEFAULT_LOOP_SETTINGS)
  const settings = { protocol: workspace.settings.protocol, maxSteps: workspace.settings.maxSteps, systemPrompt: workspace.settings.systemPrompt ?? '', loop }
  const headers = splitHeaders(endpoint.headers)
  const missing = notCarriedOver(loop, workspace.tools)
  if (headers.dropped.length > 0) missing.push(`header ${headers.dropped.join(', ')}: may hold a credential, so it is not written here`)
  const baseUrl = redactBaseUrl(endpoint.baseUrl)
  if (baseUrl.removed.length > 0) missing.push(`${baseUrl.removed.join(', ')}: a credential, so it is not written here`)
  const exportsObject = Object.entries(tools.exports).map(([key, local]) => (key === local ? local : `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${local}`))
  const program: EndpointConfig = {
    baseUrl: baseUrl.url,
    model: endpoint.model,
    stream: endpoint.stream,
    ...(endpoint.temperature === undefined ? {} : { temperature: endpoint.temperature }),
    ...(endpoint.timeoutMs === undefined ? {} : { timeoutMs: endpoint.timeoutMs }),
    ...(Object.keys(headers.kept).length > 0 ? { headers: headers.kept } : {}),
  }
  return [
    ...header.map((line) => (line === '' ? '//' : `// ${line}`)),
    ...(missing.length > 0 ? ['//', '// Not carried over from the workspace:', ...missing.map((m) => `//   - ${m}`)] : []),
    '',
    "import * as toolstepZod from 'zod'",
    ...(tools.bindsZ ? [] : ["import { z } from 'zod'"]),
    ...(kind === 'program' ? ["import { createInterface } from 'node:readline/promises'"] : ["import * as vitest from 'vitest'"]),
    '',
    rule('Types'),
    part(bundle, 'types'),
    '',
    '/** A tool definition, in the shape of Toolstep\'s (and the Vercel AI SDK\'s) `tool()`. */',
    'interface ToolDefinition<Schema extends z.ZodType = z.ZodType, Result = unknown> {',
    '  name?: string',
    '  description: string',
    '  inputSchema: Schema',
    '  execute: (args: z.output<Schema>, options: { toolCallId: string }) => Result | Promise<Result>',
    '  dangerous?: boolean',
    '  timeoutMs?: number',
    '  aliases?: string[]',
    '  argumentAliases?: Record<string, string>',
    '}',
    '',
    '/** Defines a tool: returns the definition, marked so the loop can tell tools from other exports. */',
    'function tool<Schema extends z.ZodType, Result>(definition: ToolDefinition<Schema, Result>): ToolDefinition<Schema, Result> {',
    "  Object.defineProperty(definition, Symbol.for('toolstep.tool'), { value: true })",
    '  return definition',
    '}',
    ...(tools.types.length > 0 ? ['', ...tools.types] : []),
    '',
    rule(`Toolstep's ${settings.protocol} wire format, validation and endpoint client, bundled from Toolstep (MIT)`),
    '// The same code the playground runs, so this loop sends and parses exactly what the playground showed.',
    '// prettier-ignore',
    `const toolstep = new Function('require', ${JSON.stringify(bundle.kit)})((id: string) => {`,
    "  if (id === 'zod') return toolstepZod",
    '  throw new Error(`The bundled Toolstep code asked for "${id}".`)',
    '}) as Toolstep',
    '',
    rule('tools.ts'),
    tools.code.trimEnd(),
    '',
    `const TOOLS = toolstep.loadTools({ ${exportsObject.join(', ')} })`,
    '',
    rule('Settings (from the workspace)'),
    `const SETTINGS: LoopProgramSettings = ${JSON.stringify(settings, null, 2)}`,
    '',
    ...(kind === 'program'
      ? [
          '/** The endpoint asked unless TOOLSTEP_BASE_URL / TOOLSTEP_MODEL / TOOLSTEP_STREAM say otherwise. The API key is read from the environment only. */',
          `const ENDPOINT: LoopProgramEndpoint = ${JSON.stringify(program, null, 2)}`,
          '',
        ]
      : []),
    '/** The user message the run starts from (the workspace\'s input). */',
    `const INPUT = ${JSON.stringify(workspace.input)}`,
    '',
    rule('The loop'),
    part(bundle, 'loop'),
    '',
  ].join('\n')
}

/**
 * The *Export → TypeScript loop* file (see the module header).
 * @throws ExportError when tools.ts cannot be carried into one file (the message says why).
 */
export function writeLoopProgram(input: ExportInput): string {
  const header = [
    `Toolstep export: the tool-use loop of this workspace (${input.workspace.settings.protocol} wire format), as one file.`,
    '',
    'Run it (Node >= 20; needs only zod):',
    '  npm install zod',
    `  TOOLSTEP_BASE_URL=${redactBaseUrl(input.endpoint.baseUrl).url || 'http://127.0.0.1:11434/v1'} TOOLSTEP_MODEL=${input.endpoint.model || 'MODEL'} npx tsx toolstep-loop.ts ["your question"] [--json]`,
    '',
    'Environment: TOOLSTEP_BASE_URL, TOOLSTEP_MODEL, TOOLSTEP_API_KEY (or OPENAI_API_KEY), TOOLSTEP_STREAM=1|0.',
    'Exit code: 0 with a final answer, 1 otherwise, 2 on missing settings, 130 after Ctrl-C.',
  ]
  return [
    body(input, 'program', header),
    rule('Run'),
    part(input.bundle, 'main'),
    '',
    'main().then(',
    '  (code) => {',
    '    process.exitCode = code',
    '  },',
    '  (error: unknown) => {',
    '    console.error(error)',
    '    process.exitCode = 1',
    '  },',
    ')',
    '',
  ].join('\n')
}

/** What the *Vitest test* export asserts: the recorded run. */
export interface RecordedRun {
  input: string
  turns: { step: number; after: string; raw: string }[]
  calls: { name: string; arguments: unknown; result?: string; error?: string }[]
  stopReason: string
  finalAnswer: string | null
  /** Ids of calls the user declined. */
  declined: string[]
}

/** The recorded run in a live session's events. Throws an ExportError when the session has no model output. */
export function recordedRun(events: readonly SessionEvent[]): RecordedRun {
  const turns = recordedTurns(events)
  if (turns.length === 0) throw new ExportError(exportPhrase('noOutput'))
  const state = fold(events)
  const started = events.find((e) => e.type === 'session.started')
  const input = started?.type === 'session.started' ? (started.messages.find((m) => m.role === 'user')?.content ?? '') : ''
  const calls = events.flatMap((e) =>
    e.type === 'tool.finished' && e.parentCallId === undefined
      ? [{ name: e.name, arguments: e.arguments ?? {}, ...(e.error !== undefined ? { error: e.error } : { result: e.result ?? '' }) }]
      : [],
  )
  const declined = events.flatMap((e) => (e.type === 'confirm.decided' ? e.decisions.filter((d) => d.decision === 'deny').map((d) => d.callId) : []))
  return { input, turns, calls, stopReason: state.stop?.reason ?? 'error', finalAnswer: state.finalAnswer, declined }
}

/**
 * The *Export → Vitest test* file: the workspace's tools run by the loop against the recorded
 * model outputs of `events`; it asserts the calls (names, arguments, results), the stop reason
 * and the final answer, so it fails when a tool starts answering differently.
 * @throws ExportError when tools.ts cannot be exported or the session has no model output.
 */
export function writeLoopTest(input: Omit<ExportInput, 'endpoint'> & { events: readonly SessionEvent[] }): string {
  const recorded = recordedRun(input.events)
  const protocol = input.workspace.settings.protocol
  const header = [
    `Toolstep export: a Vitest test of this workspace's tools, replaying a recorded session (${protocol} wire format).`,
    'The loop runs the tools with the model outputs exactly as recorded and checks the calls, their results,',
    'the stop reason and the final answer. When a tool answers differently, the test fails and says where.',
    '',
    'Run it: npm install -D vitest zod && npx vitest run toolstep-loop.test.ts',
  ]
  return [
    body({ ...input, endpoint: { baseUrl: '', model: '', stream: false } }, 'test', header),
    rule('The recorded session'),
    part(input.bundle, 'replay'),
    '',
    `const RECORDED = ${jsonText(recorded, 2)}`,
    '',
    rule('Test'),
    "vitest.describe('the workspace replayed against its recorded model outputs', () => {",
    "  vitest.it('makes the recorded tool calls, gets the recorded results, and reaches the recorded answer', async () => {",
    '    const run = await runLoop({ model: recordedModel(RECORDED.turns), input: RECORDED.input, confirm: async (call) => !RECORDED.declined.includes(call.id) })',
    '    vitest.expect(run.detail ?? "", "why the loop stopped").not.toContain("diverged from the recording")',
    '    vitest.expect(run.calls.map(({ name, arguments: args, result, error }) => ({ name, arguments: args, ...(error === undefined ? { result } : { error }) }))).toEqual(RECORDED.calls)',
    '    vitest.expect(run.stopReason).toBe(RECORDED.stopReason)',
    '    vitest.expect(run.finalAnswer).toBe(RECORDED.finalAnswer)',
    '  })',
    '})',
    '',
  ].join('\n')
}
