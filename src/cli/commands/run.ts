/**
 * `toolstep run WORKSPACE.json [--max-steps N] [--json] [--max-memory-mb N] [--allow-fs-write PATH] [--trust]`
 * — runs a workspace exported from the playground in the CLI sandbox (a child process under
 * Node's permission model) and prints the session.
 * Exit 0 when the loop stopped with `final_answer`, 1 otherwise, 2 on usage or load errors.
 */
import { writeSession } from '../../core/files/session-file'
import { readWorkspace } from '../../core/files/workspace-file'
import { LoopRunner, runInitFor, type SessionEvent, describeEvent } from '../../core/loop/index'
import { DEFAULT_MEMORY_LIMIT_MB } from '../../sandbox/node-sandbox'
import { createProcessSandbox } from '../../sandbox/node-process-sandbox'
import type { CliIO } from '../io'
import { errorMessage } from '../../core/util'

const HELP = `Usage: toolstep run WORKSPACE.json [--max-steps N] [--approve all|none] [--json]
                    [--max-memory-mb N] [--allow-fs-write PATH] [--trust]

Runs the workspace (tools.ts, model.ts, input, settings) headless and prints each phase.
  --max-steps N          override the workspace's maxSteps
  --approve all|none     answer confirmations for dangerous tools (default: none, every such call is denied)
  --json                 print the session file (toolstep.session) instead of a readable log
  --max-memory-mb N      heap cap of the sandbox running tools.ts and model.ts (default ${DEFAULT_MEMORY_LIMIT_MB})
  --allow-fs-write PATH  let user code write PATH (a file or folder; repeatable)
  --trust                run user code with your full privileges (no permission model)
User code may read the Toolstep package and use the network (fetch); without --allow-fs-write
or --trust it cannot write files, start processes or start workers.
Exit status: 0 when the loop ends with final_answer, 1 otherwise, 2 on usage or load errors.
`

export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  let file: string | undefined
  let maxSteps: number | undefined
  let json = false
  let approve: 'all' | 'none' = 'none'
  let memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB
  const allowFsWrite: string[] = []
  let trust = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = (name: string) => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : argv[++i])
    if (arg === '--json') json = true
    else if (arg === '--trust') trust = true
    else if (arg === '--max-memory-mb' || arg.startsWith('--max-memory-mb=')) {
      const n = Number(value('--max-memory-mb'))
      if (!Number.isInteger(n) || n < 16) {
        io.stderr('toolstep run: --max-memory-mb takes a whole number of MB ≥ 16.\n')
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
    } else if (arg === '--max-steps') {
      const n = Number(argv[++i])
      if (!Number.isInteger(n) || n < 1) {
        io.stderr('toolstep run: --max-steps takes a whole number ≥ 1.\n')
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
  // Running out of memory is not a tool failure to hand back to the model: the run stops, exit 1.
  let outOfMemory: string | undefined
  let stopRun: (() => void) | undefined
  const sandbox = createProcessSandbox({
    memoryLimitMb,
    allowFsWrite,
    trust,
    onOutOfMemory(message) {
      outOfMemory ??= message
      stopRun?.()
    },
  })
  try {
    const loaded = await sandbox.load({ tools: workspace.value.tools, model: workspace.value.model })
    if (!loaded.ok) {
      for (const error of loaded.errors) {
        const where = error.line ? `${error.file}:${error.line}${error.column ? `:${error.column}` : ''}` : error.file
        io.stderr(`toolstep run: ${where}: ${error.message}\n`)
      }
      return 2
    }
    const runner = new LoopRunner({
      model: sandbox,
      executor: sandbox,
      router: sandbox,
      summarizer: sandbox,
      codeRunner: sandbox,
      confirm: async (calls) => calls.map((c) => ({ callId: c.call.id, decision: approve === 'all' ? 'approve' : 'deny' })),
      onEvent: (event) => {
        if (!json) io.stdout(formatEvent(event))
      },
    })
    stopRun = () => runner.abort(outOfMemory)
    runner.start(runInitFor(workspace.value, loaded.tools, maxSteps))
    await runner.run()
    if (outOfMemory !== undefined) io.stderr(`toolstep run: ${outOfMemory}\n`)
    if (json) io.stdout(writeSession(workspace.value, runner.events))
    else if (runner.state.finalAnswer !== null) io.stdout(`\nFinal answer: ${runner.state.finalAnswer}\n`)
    return runner.state.stop?.reason === 'final_answer' && outOfMemory === undefined ? 0 : 1
  } finally {
    sandbox.dispose()
  }
}

function formatEvent(event: SessionEvent): string {
  const summary = describeEvent(event)
  return `${String(event.seq).padStart(3)}  ${summary.phase.padEnd(8)} ${summary.title} — ${summary.detail}\n`
}
