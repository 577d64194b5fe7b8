/**
 * `toolstep diff A B [--json] [--conversation N]` — compares two session files or logged
 * conversations turn by turn (text, calls, arguments, results, stop reason). Exit 0 when
 * they agree, 1 when they differ, 2 on usage or load errors.
 */
import { diffTwoSessions, type SessionDiff } from '../../core/debug'
import { readSession } from '../../core/files/session-file'
import type { SessionEvent } from '../../core/loop/events'
import { importLog, replayEvents } from '../../core/trace'
import type { CliIO } from '../io'
import { wholeNumber } from '../whole-number'

const HELP = `Usage: toolstep diff A B [--json] [--conversation N]

Compares two sessions turn by turn: the model's text, the tools called, their arguments, their
results, and the stop reason. A and B are Toolstep session files (toolstep.session, from
"toolstep run --json" or the app's Export) or logged conversations in any format "toolstep
replay" reads; of a log with several conversations the first is compared, or the Nth with
--conversation N (or FILE#N for one side).
  --json   print {"same","turns":{"a","b"},"firstDifference":{"turn","aspect"}|null,"rows":[{"turn","aspect","a","b","same"}]}
Exit status: 0 when the sessions agree, 1 when they differ, 2 on usage or load errors.
`

export async function diffCommand(argv: string[], io: CliIO): Promise<number> {
  const files: string[] = []
  let json = false
  let conversation = 1
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') {
      io.stdout(HELP)
      return 0
    } else if (arg === '--json') json = true
    else if (arg === '--conversation' || arg.startsWith('--conversation=')) {
      const n = wholeNumber(arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i], 1, Number.MAX_SAFE_INTEGER)
      if (n === undefined) {
        io.stderr('toolstep diff: --conversation takes a whole number ≥ 1.\n')
        return 2
      }
      conversation = n
    } else if (arg.startsWith('-') && arg !== '-') {
      io.stderr(`toolstep diff: unknown option "${arg}".\n\n${HELP}`)
      return 2
    } else files.push(arg)
  }
  if (files.length !== 2) {
    io.stderr(`toolstep diff: expected two files, got ${files.length}.\n\n${HELP}`)
    return 2
  }
  const sides: SessionEvent[][] = []
  for (const file of files) {
    const loaded = await loadSession(file, conversation, io)
    if (!loaded.ok) {
      io.stderr(`toolstep diff: ${loaded.error}\n`)
      return 2
    }
    sides.push(loaded.events)
  }
  const diff = diffTwoSessions(sides[0]!, sides[1]!)
  io.stdout(json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff, files[0]!, files[1]!))
  return diff.same ? 0 : 1
}

async function loadSession(spec: string, conversation: number, io: CliIO): Promise<{ ok: true; events: SessionEvent[] } | { ok: false; error: string }> {
  let file = spec
  let text: string
  try {
    text = await io.readFile(file)
  } catch (error) {
    const picked = /^(.*)#(\d+)$/.exec(spec)
    if (!picked || Number(picked[2]) < 1) return { ok: false, error: `cannot read ${spec}: ${error instanceof Error ? error.message : String(error)}` }
    file = picked[1]!
    conversation = Number(picked[2])
    try {
      text = await io.readFile(file)
    } catch (inner) {
      return { ok: false, error: `cannot read ${file}: ${inner instanceof Error ? inner.message : String(inner)}` }
    }
  }
  const log = importLog(text)
  if (!log.ok) return { ok: false, error: `${file}: ${log.error}` }
  if (log.format === 'toolstep-session') {
    const session = readSession(log.session ?? text)
    return session.ok ? { ok: true, events: session.value.events } : { ok: false, error: `${file}: ${session.error}` }
  }
  const picked = log.conversations[conversation - 1]
  if (!picked) return { ok: false, error: `${file} has ${log.conversations.length} ${log.conversations.length === 1 ? 'conversation' : 'conversations'}; there is no conversation ${conversation}.` }
  return { ok: true, events: replayEvents(picked) }
}

function formatDiff(diff: SessionDiff, a: string, b: string): string {
  const lines = [`A: ${a} (${diff.turns.a} turns)`, `B: ${b} (${diff.turns.b} turns)`, '']
  const show = (v: string | null) => (v === null ? '(none)' : v === '' ? '(empty)' : v.replaceAll('\n', '\n             '))
  for (const row of diff.rows) {
    const where = row.aspect === 'stop' ? 'end    ' : `turn ${String(row.turn).padEnd(2)}`
    if (row.same) lines.push(`  ${where} ${row.aspect.padEnd(9)} = ${show(row.a).split('\n')[0]!.slice(0, 100)}`)
    else lines.push(`≠ ${where} ${row.aspect.padEnd(9)}`, `    A: ${show(row.a)}`, `    B: ${show(row.b)}`)
  }
  const differing = diff.rows.filter((r) => !r.same).length
  lines.push('', diff.firstDifference ? `${differing} of ${diff.rows.length} rows differ; first at turn ${diff.firstDifference.turn} (${diff.firstDifference.aspect}).` : 'The sessions agree.')
  return `${lines.join('\n')}\n`
}
