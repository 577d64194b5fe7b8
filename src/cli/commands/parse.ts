/**
 * `toolstep parse [FILE|-] [--protocol ID|auto] [--jsonl]` — parses raw model output into tool
 * calls.
 *
 * Output: one JSON object `{"protocol","calls":[{"name","arguments"}],"text","repairs","errors"}`;
 * with `--jsonl`, every input line is `{"id","raw","protocol"?}` and gives one output line
 * `{"id","protocol","calls","text","repairs","errors"}` with the same `id` (a bad line gives an
 * `invalid_input` error on its own line and the batch goes on).
 * Exit 0 whether or not a call was found; 2 on usage errors (unknown flag or protocol, unreadable file).
 */
import { getProtocol, protocols } from '../../core/protocols/index'
import type { ParseResult } from '../../core/protocols/types'
import type { CliIO } from '../io'
import { errorMessage } from '../../core/util'

const HELP = `Usage: toolstep parse [FILE|-] [--protocol ID|auto] [--jsonl]

Parses raw model output into tool calls and prints them as JSON.
  FILE             the raw output, or - (the default) for standard input
  --protocol ID    the wire format (default auto): ${protocols.map((protocol) => protocol.id).join(', ')}
  --jsonl          batch mode: each input line is {"id","raw","protocol"?}; one output line per input
Exit status: 0 whether or not a call was found, 2 on usage errors.
`

interface ParseArgs {
  input: string
  protocol: string
  jsonl: boolean
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`toolstep parse: ${message}\n\n${HELP}`)
  return 2
}

function readArgs(argv: string[]): ParseArgs | { error: string } | 'help' {
  const args: ParseArgs = { input: '-', protocol: 'auto', jsonl: false }
  let inputGiven = false
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? ''
    if (arg === '--help' || arg === '-h') return 'help'
    if (arg === '--jsonl') {
      args.jsonl = true
    } else if (arg === '--protocol' || arg.startsWith('--protocol=')) {
      const value = arg === '--protocol' ? argv[++index] : arg.slice('--protocol='.length)
      if (value === undefined || value === '') return { error: '--protocol needs a protocol id.' }
      args.protocol = value
    } else if (arg.startsWith('-') && arg !== '-') {
      return { error: `unknown option "${arg}".` }
    } else {
      if (inputGiven) return { error: `only one input file can be given (got "${args.input}" and "${arg}").` }
      args.input = arg
      inputGiven = true
    }
  }
  return args
}

/** The contract's output shape: calls reduced to name and arguments. */
function present(result: ParseResult): { protocol: string; calls: { name: string; arguments: ParseResult['calls'][number]['arguments'] }[]; text: string; repairs: ParseResult['repairs']; errors: ParseResult['errors'] } {
  return {
    protocol: result.protocol,
    calls: result.calls.map((call) => ({ name: call.name, arguments: call.arguments })),
    text: result.text,
    // The contract's shapes: code, message, span (the phrase is the UI's translation key; the
    // unread native call rides on the parse for the loop only).
    repairs: result.repairs.map(({ phrase: _phrase, ...repair }) => repair),
    errors: result.errors.map(({ call: _call, phrase: _phrase, ...error }) => error),
  }
}

function knownIds(): string {
  return protocols.map((protocol) => protocol.id).join(', ')
}

function parseLine(line: string, lineNumber: number, defaultProtocol: string): { output: object; problem?: string } {
  const failed = (id: unknown, protocol: unknown, code: string, message: string) => ({
    output: { id: id ?? null, protocol: typeof protocol === 'string' ? protocol : null, calls: [], text: '', repairs: [], errors: [{ code, message }] },
    problem: `line ${lineNumber}: ${message}`,
  })
  let record: unknown
  try {
    record = JSON.parse(line)
  } catch (error) {
    return failed(null, null, 'invalid_input', `Not a JSON object: ${errorMessage(error)}`)
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return failed(null, null, 'invalid_input', 'Each line must be a JSON object {"id","raw","protocol"?}.')
  }
  const fields = record as { id?: unknown; raw?: unknown; protocol?: unknown }
  const protocolId = fields.protocol === undefined ? defaultProtocol : fields.protocol
  if (typeof fields.raw !== 'string') return failed(fields.id, protocolId, 'invalid_input', '"raw" must be a string.')
  if (typeof protocolId !== 'string') return failed(fields.id, null, 'invalid_input', '"protocol" must be a string.')
  const protocol = getProtocol(protocolId)
  if (!protocol) return failed(fields.id, protocolId, 'unknown_protocol', `Unknown protocol "${protocolId}" (known: ${knownIds()}).`)
  return { output: { id: fields.id ?? null, ...present(protocol.parse(fields.raw)) } }
}

/** Runs `toolstep parse`; resolves with the exit code. Writes only through `io`. */
export async function parseCommand(argv: string[], io: CliIO): Promise<number> {
  const args = readArgs(argv)
  if (args === 'help') {
    io.stdout(HELP)
    return 0
  }
  if ('error' in args) return usageError(io, args.error)
  const protocol = getProtocol(args.protocol)
  if (!protocol) return usageError(io, `unknown protocol "${args.protocol}" (known: ${knownIds()}).`)

  let input: string
  try {
    input = args.input === '-' ? await io.readStdin() : await io.readFile(args.input)
  } catch (error) {
    io.stderr(`toolstep parse: cannot read "${args.input}": ${errorMessage(error)}\n`)
    return 2
  }

  if (!args.jsonl) {
    io.stdout(`${JSON.stringify(present(protocol.parse(input)))}\n`)
    return 0
  }
  const lines = input.split(/\r?\n/)
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    const { output, problem } = parseLine(line, index + 1, args.protocol)
    if (problem) io.stderr(`toolstep parse: ${problem}\n`)
    io.stdout(`${JSON.stringify(output)}\n`)
  })
  return 0
}
