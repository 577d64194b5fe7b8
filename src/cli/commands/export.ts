/**
 * `toolstep export-code WORKSPACE.json [--endpoint URL] [--model NAME] [--stream] [-o FILE]` and
 * `toolstep export-test SESSION.json [-o FILE]`: the playground's *Export → TypeScript loop* and
 * *Export → Vitest test* from the command line (same files, made by core/export). The file goes
 * to stdout, or to FILE with `-o`. Exit 0 on success, 2 on usage or input errors.
 */
import bundle from 'virtual:toolstep-export-kit'
import { readSession } from '../../core/files/session-file'
import { readWorkspace } from '../../core/files/workspace-file'
import { ExportError, writeLoopProgram, writeLoopTest } from '../../core/export/index'
import { checkBaseUrl } from '../../core/endpoint/index'
import { errorMessage } from '../../core/util'
import type { CliIO } from '../io'

const HELP = {
  'export-code': `Usage: toolstep export-code WORKSPACE.json [--endpoint URL] [--model NAME] [--stream] [-o FILE]

Writes the workspace as one runnable TypeScript file (Node >= 20, needs only zod): its tools, its
settings, the loop, and Toolstep's parser for its wire format. Run it with
  TOOLSTEP_BASE_URL=… TOOLSTEP_MODEL=… npx tsx FILE
  --endpoint URL   the base URL the program asks by default (default http://127.0.0.1:11434/v1)
  --model NAME     the model name it sends by default
  --stream         ask for streamed responses by default
  -o, --out FILE   write the file there instead of to stdout
The API key is never written: the program reads TOOLSTEP_API_KEY or OPENAI_API_KEY when it runs.
`,
  'export-test': `Usage: toolstep export-test SESSION.json [-o FILE]

Writes a Vitest test that runs the session's workspace tools with the session's recorded model
outputs, and checks the calls made (names, arguments, results), the stop reason and the final answer.
  -o, --out FILE   write the file there instead of to stdout
`,
} as const

/** Runs `export-code` or `export-test` with `argv` (the arguments after the command name). */
export async function exportCommand(command: 'export-code' | 'export-test', argv: string[], io: CliIO): Promise<number> {
  let file: string | undefined
  let out: string | undefined
  let baseUrl = 'http://127.0.0.1:11434/v1'
  let model = ''
  let stream = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = () => {
      const given = argv[++i]
      if (given === undefined || given.startsWith('-')) throw new ExportError(`${arg} takes a value.`)
      return given
    }
    try {
      if (arg === '--help' || arg === '-h') {
        io.stdout(HELP[command])
        return 0
      } else if (arg === '-o' || arg === '--out') out = value()
      else if (command === 'export-code' && arg === '--endpoint') {
        baseUrl = value()
        const bad = checkBaseUrl(baseUrl)
        if (bad !== null) throw new ExportError(`--endpoint: ${bad}`)
      }
      else if (command === 'export-code' && arg === '--model') model = value()
      else if (command === 'export-code' && arg === '--stream') stream = true
      else if (arg.startsWith('-')) throw new ExportError(`unknown option "${arg}".\n\n${HELP[command]}`)
      else if (file === undefined) file = arg
      else throw new ExportError(`expected one file, got also "${arg}".`)
    } catch (error) {
      io.stderr(`toolstep ${command}: ${errorMessage(error)}\n`)
      return 2
    }
  }
  if (!file) {
    io.stderr(`toolstep ${command}: missing ${command === 'export-code' ? 'WORKSPACE.json' : 'SESSION.json'}.\n\n${HELP[command]}`)
    return 2
  }
  let text: string
  try {
    text = await io.readFile(file)
  } catch (error) {
    io.stderr(`toolstep ${command}: cannot read ${file}: ${errorMessage(error)}\n`)
    return 2
  }
  // The two commands take the two file kinds, which are easy to swap: name the mix-up.
  const kind = /"format"\s*:\s*"toolstep\.(workspace|session)"/.exec(text.slice(0, 200))?.[1]
  if (command === 'export-test' && kind === 'workspace') {
    io.stderr(`toolstep export-test: ${file} is a workspace, not a session: run it with "toolstep run ${file} --json > session.json" (or export the session from the playground), then export-test session.json.\n`)
    return 2
  }
  if (command === 'export-code' && kind === 'session') {
    io.stderr(`toolstep export-code: ${file} is a session, not a workspace: export-code takes a workspace (toolstep.workspace, the playground's Export → Workspace); export-test takes a session.\n`)
    return 2
  }
  let program: string
  try {
    if (command === 'export-code') {
      const workspace = readWorkspace(text)
      if (!workspace.ok) throw new ExportError(`${file}: ${workspace.error}`)
      program = writeLoopProgram({ workspace: workspace.value, endpoint: { baseUrl, model, stream }, bundle })
    } else {
      const session = readSession(text)
      if (!session.ok) throw new ExportError(`${file}: ${session.error}`)
      if (!session.value.workspace) throw new ExportError(`${file} is a replayed log without a workspace: the test needs the tools that ran. Export the session of a live run.`)
      program = writeLoopTest({ workspace: session.value.workspace, events: session.value.events, bundle })
    }
  } catch (error) {
    io.stderr(`toolstep ${command}: ${errorMessage(error)}\n`)
    return 2
  }
  if (out === undefined) {
    io.stdout(program)
    return 0
  }
  try {
    await io.writeFile(out, program)
  } catch (error) {
    io.stderr(`toolstep ${command}: cannot write ${out}: ${errorMessage(error)}\n`)
    return 2
  }
  io.stderr(`toolstep ${command}: wrote ${out}\n`)
  return 0
}
