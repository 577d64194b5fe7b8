/**
 * `toolstep run WORKSPACE.json [--max-steps N] [--json] [--break SPEC]… [--max-memory-mb N] [--allow-fs-write PATH] [--trust]`
 * — runs a workspace exported from the playground in the CLI sandbox (a child process under
 * Node's permission model) and prints the session.
 * Exit 0 when the loop stopped with `final_answer`, 1 otherwise, 2 on usage or load errors,
 * 3 when a breakpoint paused the run, 130 after Ctrl-C (the session so far is printed).
 */
import { writeSession } from '../../core/files/session-file'
import { readWorkspace } from '../../core/files/workspace-file'
import { LoopRunner, runInitFor, type SessionEvent, describeEvent } from '../../core/loop/index'
import { DEFAULT_MEMORY_LIMIT_MB } from '../../sandbox/node-sandbox'
import { createProcessSandbox } from '../../sandbox/node-process-sandbox'
import type { CliIO } from '../io'
import { errorMessage } from '../../core/util'
import { checkBaseUrl, createEndpointModel, withReceived, type EndpointConfig } from '../../core/endpoint'
import type { Model } from '../../core/loop/interfaces'
import { armBreakpoints, parseBreakpointSpec, runUntilBreak, type Breakpoint, type BreakHit } from '../../core/debug'
import { wholeNumber } from '../whole-number'

/** Largest `--timeout`: what `setTimeout` can wait (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647
/** Largest `--max-memory-mb` (64 GB). */
const MAX_MEMORY_MB = 65_536
/** Largest `--max-steps`. */
const MAX_STEPS = 1_000_000

const HELP = `Usage: toolstep run WORKSPACE.json [--max-steps N] [--approve all|none] [--deny-reason TEXT] [--break SPEC]… [--json]
                    [--max-memory-mb N] [--allow-fs-write PATH] [--trust]
                    [--endpoint URL --model NAME [--stream] [--temperature T] [--timeout MS] [--header 'K: V']]

Runs the workspace (tools.ts, model.ts, input, settings) headless and prints each phase.
  --max-steps N          override the workspace's maxSteps
  --approve all|none     answer confirmations for dangerous tools (default: none, every such call is denied)
  --deny-reason TEXT     the reason given with each denial; the model gets it in the call's error result
  --break SPEC           pause at a breakpoint: print the session so far and exit 3 (repeatable).
                         SPEC: [before|after PHASE | on EVENT.TYPE | on anomaly | at turn N] [when CONDITION]
                         e.g. --break "before execute when call.name == 'charge' && call.arguments.amount > 100"
                         Condition names: phase, turn, event, call, calls, verdicts, result, errors,
                         repairs, anomalies; count(list) counts items. The workspace's enabled
                         breakpoints (settings.breakpoints) are honoured too.
  --ignore-breakpoints   ignore the breakpoints saved in the workspace
  --json                 print the session file (toolstep.session) instead of a readable log
  --max-memory-mb N      heap cap of the sandbox running tools.ts and model.ts (default ${DEFAULT_MEMORY_LIMIT_MB})
  --allow-fs-write PATH  let user code write PATH (a file or folder; repeatable)
  --trust                run user code with your full privileges (no permission model)
User code may read the Toolstep package and use the network (fetch); without --allow-fs-write
or --trust it cannot write files, start processes or workers, signal other processes, or read
environment variables (only LANG, LC_* and TZ are passed).
  --endpoint URL         use an OpenAI-compatible Chat Completions server as the model instead of model.ts
                         (base URL, e.g. http://127.0.0.1:11434/v1); the key is read from TOOLSTEP_API_KEY
                         or OPENAI_API_KEY
  --model NAME           the model name sent to the endpoint (required with --endpoint)
  --stream               ask for a streamed response (chunks and time to first token are recorded)
  --temperature T        sampling temperature (0–2; the server's default when absent)
  --timeout MS           time allowed for one model call (default 60000)
  --header 'K: V'        an extra request header (repeatable)
Ctrl-C cancels the model request in flight, stops the loop with "aborted", prints the session
so far and exits 130 (a second Ctrl-C exits at once).
Exit status: 0 when the loop ends with final_answer, 1 otherwise, 2 on usage or load errors,
3 when a breakpoint paused the run, 130 after Ctrl-C.
`

export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  let file: string | undefined
  let maxSteps: number | undefined
  let json = false
  let approve: 'all' | 'none' = 'none'
  let denyReason: string | undefined
  let memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB
  const allowFsWrite: string[] = []
  let trust = false
  let endpointUrl: string | undefined
  let modelName: string | undefined
  let stream = false
  let temperature: number | undefined
  let timeoutMs: number | undefined
  const headers: Record<string, string> = {}
  const breaks: Breakpoint[] = []
  let ignoreSaved = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = (name: string) => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : argv[++i])
    if (arg === '--json') json = true
    else if (arg === '--trust') trust = true
    else if (arg === '--stream') stream = true
    else if (arg === '--endpoint' || arg === '--model') {
      const given = argv[++i]
      if (!given || given.startsWith('--')) {
        io.stderr(`toolstep run: ${arg} takes a value.\n`)
        return 2
      }
      if (arg === '--endpoint') endpointUrl = given
      else modelName = given
    } else if (arg === '--temperature') {
      const n = Number(argv[++i])
      if (!Number.isFinite(n) || n < 0 || n > 2) {
        io.stderr('toolstep run: --temperature takes a number from 0 to 2.\n')
        return 2
      }
      temperature = n
    } else if (arg === '--timeout') {
      const n = wholeNumber(argv[++i], 1, MAX_TIMEOUT_MS)
      if (n === undefined) {
        io.stderr(`toolstep run: --timeout takes a whole number of ms from 1 to ${MAX_TIMEOUT_MS}.\n`)
        return 2
      }
      timeoutMs = n
    } else if (arg === '--header') {
      const given = argv[++i] ?? ''
      const colon = given.indexOf(':')
      if (colon < 1) {
        io.stderr('toolstep run: --header takes "Name: value".\n')
        return 2
      }
      headers[given.slice(0, colon).trim()] = given.slice(colon + 1).trim()
    } else if (arg === '--ignore-breakpoints') ignoreSaved = true
    else if (arg === '--break' || arg.startsWith('--break=')) {
      const spec = value('--break')
      if (spec === undefined || spec.trim() === '') {
        io.stderr('toolstep run: --break takes a breakpoint, e.g. --break "after validate when verdicts[.ok == false]".\n')
        return 2
      }
      const parsed = parseBreakpointSpec(spec, `break-${breaks.length + 1}`)
      if (!parsed.ok) {
        io.stderr(`toolstep run: --break ${JSON.stringify(spec)}: ${parsed.error}\n`)
        return 2
      }
      breaks.push(parsed.breakpoint)
    } else if (arg === '--max-memory-mb' || arg.startsWith('--max-memory-mb=')) {
      const n = wholeNumber(value('--max-memory-mb'), 16, MAX_MEMORY_MB)
      if (n === undefined) {
        io.stderr(`toolstep run: --max-memory-mb takes a whole number of MB from 16 to ${MAX_MEMORY_MB}.\n`)
        return 2
      }
      memoryLimitMb = n
    } else if (arg === '--allow-fs-write' || arg.startsWith('--allow-fs-write=')) {
      const path = value('--allow-fs-write')
      if (!path) {
        io.stderr('toolstep run: --allow-fs-write takes a path.\n')
        return 2
      }
      allowFsWrite.push(path)
    }
    else if (arg === '--help' || arg === '-h') {
      io.stdout(HELP)
      return 0
    } else if (arg === '--approve' || arg.startsWith('--approve=')) {
      const value = arg.includes('=') ? arg.slice('--approve='.length) : argv[++i]
      if (value !== 'all' && value !== 'none') {
        io.stderr('toolstep run: --approve takes "all" or "none".\n')
        return 2
      }
      approve = value
    } else if (arg === '--deny-reason' || arg.startsWith('--deny-reason=')) {
      const value = arg.includes('=') ? arg.slice('--deny-reason='.length) : argv[++i]
      if (value === undefined || value.trim() === '') {
        io.stderr('toolstep run: --deny-reason takes a text.\n')
        return 2
      }
      denyReason = value
    } else if (arg === '--max-steps') {
      const n = wholeNumber(argv[++i], 1, MAX_STEPS)
      if (n === undefined) {
        io.stderr(`toolstep run: --max-steps takes a whole number from 1 to ${MAX_STEPS}.\n`)
        return 2
      }
      maxSteps = n
    } else if (arg.startsWith('-')) {
      io.stderr(`toolstep run: unknown option "${arg}".\n\n${HELP}`)
      return 2
    } else if (file === undefined) file = arg
    else {
      io.stderr(`toolstep run: expected one workspace file, got also "${arg}".\n`)
      return 2
    }
  }
  if (!file) {
    io.stderr(`toolstep run: missing WORKSPACE.json.\n\n${HELP}`)
    return 2
  }
  if ((endpointUrl === undefined) !== (modelName === undefined)) {
    io.stderr('toolstep run: --endpoint and --model go together.\n')
    return 2
  }
  const badUrl = endpointUrl === undefined ? null : checkBaseUrl(endpointUrl)
  if (badUrl !== null) {
    io.stderr(`toolstep run: --endpoint: ${badUrl}\n`)
    return 2
  }
  const endpoint: EndpointConfig | undefined =
    endpointUrl !== undefined && modelName !== undefined
      ? {
          baseUrl: endpointUrl,
          model: modelName,
          stream,
          ...(temperature !== undefined ? { temperature } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(Object.keys(headers).length > 0 ? { headers } : {}),
        }
      : undefined
  let text: string
  try {
    text = await io.readFile(file)
  } catch (error) {
    io.stderr(`toolstep run: cannot read ${file}: ${errorMessage(error)}\n`)
    return 2
  }
  const workspace = readWorkspace(text)
  if (!workspace.ok) {
    io.stderr(`toolstep run: ${file}: ${workspace.error}\n`)
    return 2
  }
  const saved = ignoreSaved ? [] : (workspace.value.settings.breakpoints ?? [])
  const { armed, errors: badBreakpoints } = armBreakpoints([...saved, ...breaks])
  for (const bad of badBreakpoints) io.stderr(`toolstep run: ${file}: breakpoint ${bad.id} is ignored: ${bad.error}\n`)
  const interrupt = new AbortController()
  let stopInterrupts = () => {}
  // A call that ran out of memory makes the exit non-zero even when the run then reached its
  // answer: a script running the workspace must not take a memory bomb for success.
  let ranOutOfMemory = false
  const sandbox = createProcessSandbox({
    memoryLimitMb,
    allowFsWrite,
    trust,
    // As in the browser, only the call (or model turn) that ran out of memory ends, with this
    // message as its error; the next one gets a fresh sandbox with the workspace loaded again.
    // Said on stderr too, where the readable log does not show a tool's whole error.
    onOutOfMemory(message) {
      ranOutOfMemory = true
      // Top-level code that ran out of memory is a load error, said once below; the run stops there.
      if (loading) return
      io.stderr(`toolstep run: ${message} The sandbox was restarted.\n`)
    },
  })
  let loading = true
  try {
    const loaded = await sandbox.load({ tools: workspace.value.tools, model: workspace.value.model })
    loading = false
    if (!loaded.ok) {
      for (const error of loaded.errors) {
        const where = error.line ? `${error.file}:${error.line}${error.column ? `:${error.column}` : ''}` : error.file
        // A message that already names the file ("tools.ts ran out of memory …") is not prefixed again.
        io.stderr(`toolstep run: ${!error.line && error.message.startsWith(`${error.file} `) ? '' : `${where}: `}${error.message}\n`)
      }
      return 2
    }
    const apiKey = io.env?.['TOOLSTEP_API_KEY'] || io.env?.['OPENAI_API_KEY']
    // Ctrl-C cancels the model request in flight (the signal) and stops the loop with `aborted`.
    const endpointModel = endpoint ? createEndpointModel(endpoint, { ...(apiKey ? { apiKey } : {}), signal: interrupt.signal }) : null
    const model: Model = endpointModel ?? sandbox
    const runner = new LoopRunner({
      model,
      executor: sandbox,
      router: sandbox,
      summarizer: sandbox,
      codeRunner: sandbox,
      confirm: async (calls) => calls.map((c) => (approve === 'all' ? { callId: c.call.id, decision: 'approve' } : { callId: c.call.id, decision: 'deny', ...(denyReason === undefined ? {} : { reason: denyReason }) })),
      onEvent: (event) => {
        // With breakpoints the log is printed once the run paused or ended, cut at the pause.
        if (!json && armed.length === 0) io.stdout(formatEvent(event))
      },
    })
    const stopListening = io.onInterrupt?.(() => {
      // Read what the stream had received before cancelling it, so the stop keeps it.
      const detail = withReceived('Stopped with Ctrl-C.', endpointModel)
      interrupt.abort()
      runner.abort(detail)
    })
    stopInterrupts = () => stopListening?.()
    runner.start(runInitFor(workspace.value, loaded.tools, maxSteps))
    if (armed.length > 0) {
      const hit = await runUntilBreak(runner, armed)
      const events = hit ? runner.events.slice(0, hit.seq) : runner.events
      if (json) io.stdout(writeSession(workspace.value, events))
      else for (const event of events) io.stdout(formatEvent(event))
      if (interrupt.signal.aborted) {
        io.stderr(interruptedMessage(runner))
        return 130
      }
      if (hit) {
        // With --json, stdout is the session file alone.
        ;(json ? io.stderr : io.stdout)(formatHit(hit))
        return 3
      }
      if (!json && runner.state.finalAnswer !== null) io.stdout(`\nFinal answer: ${runner.state.finalAnswer}\n`)
      return runner.state.stop?.reason === 'final_answer' && !ranOutOfMemory ? 0 : 1
    }
    await runner.run()
    if (json) io.stdout(writeSession(workspace.value, runner.events))
    else if (runner.state.finalAnswer !== null) io.stdout(`\nFinal answer: ${runner.state.finalAnswer}\n`)
    if (interrupt.signal.aborted) {
      io.stderr(interruptedMessage(runner))
      return 130
    }
    return runner.state.stop?.reason === 'final_answer' && !ranOutOfMemory ? 0 : 1
  } finally {
    stopInterrupts()
    sandbox.dispose()
  }
}

/** What Ctrl-C stopped, with what a streamed answer had received by then (it is in the stop's detail). */
function interruptedMessage(runner: LoopRunner): string {
  const received = /Received so far: ([^]*)$/.exec(runner.state.stop?.detail ?? '')?.[1]
  return `toolstep run: stopped with Ctrl-C; the session so far is above.${received ? `\nThe model had sent so far: ${received}` : ''}\n`
}

function formatHit(hit: BreakHit): string {
  const call = hit.call ? ` (call ${hit.call.name} ${JSON.stringify(hit.call.arguments)})` : ''
  return `\nPaused at breakpoint ${hit.breakpoint.id} "${hit.label}": ${hit.where}${call}, after ${hit.seq} events.\n`
}

function formatEvent(event: SessionEvent): string {
  const summary = describeEvent(event)
  return `${String(event.seq).padStart(3)}  ${summary.phase.padEnd(8)} ${summary.title} — ${summary.detail}\n`
}
