/**
 * `toolstep replay LOG… [--format auto|…] [--tools TOOLS.json] [--summary|--check|--export openai|anthropic|ollama]
 * [--json] [--conversation ID] [--trim-window N]` — imports a logged session (any dialect the
 * importers read, or a Toolstep session file), rebuilds the loop's phases and reports anomalies.
 * Several files, or a directory, import as one log: recorded request/response bodies
 * (`NAME.N.request.json`, `NAME.N.response.sse`, …) pair into one conversation per `NAME`.
 *
 * Output: with `--summary --json` (or `--check --json`), exactly
 * `{"conversations","messages","toolCalls","toolResults","anomalies":[{"conversation","message","code","detail"}]}`
 * (0-based indexes); with `--summary` / `--check`, the same as readable text; with `--export`,
 * `[{"id","label","messages","tools"?}]` (Anthropic: `[{"id","label","system"?,"messages","tools"?}]`:
 * each entry is the app's Export body with the conversation's id and label; with `--trim-window N`
 * the messages a safe trim to N keeps, see `windowMessages`); otherwise
 * each conversation's phases, one line per event (or `{"format","conversations":[{"id","label","events"}]}`
 * with `--json`).
 * Exit 0 on success (anomalies fail only `--check`, with 1), 2 on usage, read or import errors.
 */
import { readSession } from '../../core/files/session-file'
import { isWorkspaceText } from '../../core/files/workspace-file'
import { describeEvent, pairedEarliest, windowMessages, type SessionEvent } from '../../core/loop/index'
import type { Message } from '../../core/messages'
import type { ToolSpec } from '../../core/tools/types'
import {
  DEFAULT_TRIM_WINDOW,
  EXPORT_TARGETS,
  requestExport,
  traceEnglish,
  importLogFiles,
  importOpenAITools,
  LOG_FORMATS,
  replayEvents,
  summarize,
  type ImportedConversation,
  type LogFile,
  type LogFormat,
  type ExportTarget,
  type ReplaySummary,
} from '../../core/trace/index'
import type { CliIO } from '../io'
import { errorMessage } from '../../core/util'
import { wholeNumber } from '../whole-number'

const HELP = `Usage: toolstep replay LOG… [--format auto|F] [--tools TOOLS.json] [--summary | --check | --export openai|anthropic|ollama] [--json]

Replays a logged tool-use session and reports anomalies (reused, mismatched or unanswered
tool_call_ids, orphan or out-of-order results, calls cut off by the token limit, arguments that
are not JSON, repeated calls, huge results, history a trim would split; with tool definitions
from --tools or the log, unknown tools and schema breaks). See docs/anomalies.md.
  LOG                 the log file (JSON, JSONL or server-sent events), or - for standard input;
                      several files or a directory import as one log, pairing recorded bodies
                      NAME[.N].request.json + NAME[.N].response.json|.sse|.jsonl into one
                      conversation per NAME (turns in N order)
  --format F          force the log format instead of detecting it; F is one of
                      ${LOG_FORMATS.join(', ')}
  --tools FILE        tool definitions (OpenAI, Responses or Anthropic "tools"), to check calls against
  --summary           print totals and the anomaly list instead of each conversation's phases
  --check             like --summary, but exit 1 when any anomaly is found (for CI)
  --export TARGET     print the conversations as OpenAI Chat Completions, Anthropic Messages or
                      Ollama /api/chat request bodies (messages, tools), as the app's Export writes
                      them; arguments are re-encoded for the target (OpenAI: a clean JSON string,
                      Anthropic and Ollama: objects)
  --json              machine-readable output
  --conversation C    only this conversation (0-based index or id)
  --trim-window N     messages a trimmed history keeps, for history_split_by_trim (default ${DEFAULT_TRIM_WINDOW}; 0 turns it off);
                      with --export, the history written is the one a safe trim to N keeps: the
                      system prompt and the last N messages, started later where the cut would
                      separate a call from its result (the live context window's trim)
Exit status: 0 on success, 1 when --check finds anomalies, 2 on usage or import errors.
`

interface ReplayArgs {
  logs: string[]
  format: 'auto' | LogFormat
  tools?: string
  summary: boolean
  check: boolean
  export?: ExportTarget
  json: boolean
  conversation?: string
  trimWindow?: number
}

/** A conversation ready to print: its events come from the log itself or are rebuilt from its messages. */
interface Replayed {
  id: string
  label: string
  messages: Message[]
  tools?: ToolSpec[]
  messageMeta?: ImportedConversation['messageMeta']
  events: () => SessionEvent[]
}

/** Runs `toolstep replay`; resolves with the exit code. Writes only through `io`. */
export async function replayCommand(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(argv)
  if ('help' in parsed) {
    io.stdout(HELP)
    return 0
  }
  if ('error' in parsed) {
    io.stderr(`toolstep replay: ${parsed.error}\n\n${HELP}`)
    return 2
  }
  const args = parsed

  const files = await readLogs(io, args.logs)
  if (!files.ok) {
    io.stderr(`toolstep replay: ${files.error}\n`)
    return 2
  }
  // A workspace reads as a JSON object, so an importer would take it for a one-message log.
  const workspaceAt = files.value.findIndex((file) => isWorkspaceText(file.text))
  if (workspaceAt >= 0) {
    io.stderr(`toolstep replay: ${workspaceRefusal(files.value, workspaceAt)}\n`)
    return 2
  }
  const logName = args.logs.join(' ')
  let tools: ToolSpec[] | undefined
  if (args.tools !== undefined) {
    const toolsText = await read(io, args.tools)
    if (!toolsText.ok) {
      io.stderr(`toolstep replay: cannot read ${args.tools}: ${toolsText.error}\n`)
      return 2
    }
    const imported = importOpenAITools(toolsText.value)
    if (!imported.ok) {
      io.stderr(`toolstep replay: ${args.tools}: ${imported.error}\n`)
      return 2
    }
    tools = imported.tools
  }

  const log = importLogFiles(files.value, { format: args.format })
  if (!log.ok) {
    io.stderr(`toolstep replay: ${logName}: ${log.error}\n`)
    return 2
  }
  let conversations: Replayed[]
  if (log.format === 'toolstep-session') {
    const session = readSession(log.session)
    if (!session.ok) {
      io.stderr(`toolstep replay: ${logName}: ${session.error}\n`)
      return 2
    }
    // A session already is a log of phases: print it as recorded, and check its messages.
    const events = session.value.events
    const started = events.find((event) => event.type === 'session.started')
    conversations = [
      {
        id: '0',
        label: 'session',
        messages: messagesOf(events),
        ...(started?.type === 'session.started' && started.tools.length > 0 ? { tools: started.tools } : {}),
        events: () => events,
      },
    ]
  } else {
    conversations = log.conversations.map((conversation) => ({
      id: conversation.id,
      label: conversation.label,
      messages: conversation.messages,
      ...(conversation.tools ? { tools: conversation.tools } : {}),
      ...(conversation.messageMeta ? { messageMeta: conversation.messageMeta } : {}),
      events: () => replayEvents(conversation, tools ? { tools } : {}),
    }))
  }

  let indexes = conversations.map((_, index) => index)
  if (args.conversation !== undefined) {
    const wanted = args.conversation
    const found = conversations.findIndex((conversation, index) => conversation.id === wanted || String(index) === wanted)
    if (found < 0) {
      io.stderr(`toolstep replay: no conversation "${wanted}" (the log has ${conversations.length}, indexed from 0).\n`)
      return 2
    }
    indexes = [found]
  }

  if (args.export) {
    const target = args.export
    const out = indexes.map((index) => {
      const { id, label, messages, tools: own } = conversations[index]!
      // --trim-window N: the history the loop's own trim keeps, so the trim can be used, not only checked.
      const kept = args.trimWindow === undefined ? messages : windowMessages(messages, args.trimWindow, pairedEarliest(messages)).messages
      // The tools a replay offers: --tools when given, else the log's own (as the app's replay does).
      const { body, warning } = requestExport(target, kept, tools ?? own ?? [])
      // stderr, so the bodies on stdout stay one JSON document.
      if (warning) io.stderr(`toolstep replay: conversation ${id}: ${traceEnglish(warning)}\n`)
      return { id, label, ...body }
    })
    io.stdout(`${JSON.stringify(out, null, 2)}\n`)
    return 0
  }
  if (args.summary || args.check) {
    const chosen = indexes.map((index) => conversations[index]!)
    const summary = summarize(chosen, tools, args.trimWindow === undefined ? {} : { trimWindow: args.trimWindow === 0 ? false : args.trimWindow })
    // Anomalies point at the conversation's index in the whole log, even when one was chosen.
    const located: ReplaySummary = { ...summary, anomalies: summary.anomalies.map((anomaly) => ({ ...anomaly, conversation: indexes[anomaly.conversation] ?? anomaly.conversation })) }
    io.stdout(args.json ? `${JSON.stringify(located)}\n` : formatSummary(log.format, located, conversations))
    return args.check && located.anomalies.length > 0 ? 1 : 0
  }
  if (args.json) {
    const out = { format: log.format, conversations: indexes.map((index) => ({ id: conversations[index]!.id, label: conversations[index]!.label, events: conversations[index]!.events() })) }
    io.stdout(`${JSON.stringify(out)}\n`)
    return 0
  }
  for (const index of indexes) io.stdout(formatConversation(index, conversations[index]!))
  return 0
}

function parseArgs(argv: readonly string[]): ReplayArgs | { error: string } | { help: true } {
  const logs: string[] = []
  let format: ReplayArgs['format'] = 'auto'
  let tools: string | undefined
  let conversation: string | undefined
  let summary = false
  let check = false
  let exportTo: ReplayArgs['export']
  let trimWindow: number | undefined
  let json = false
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = (): string | undefined => inline ?? argv[++index]
    switch (flag) {
      case '--help':
      case '-h':
        return { help: true }
      case '--summary':
        summary = true
        break
      case '--json':
        json = true
        break
      case '--check':
        check = true
        break
      case '--export': {
        const target = value()
        const known = EXPORT_TARGETS.find((name) => name === target)
        if (known === undefined) return { error: `--export takes ${EXPORT_TARGETS.join(', ')}${target === undefined ? '' : ` (got "${target}")`}.` }
        exportTo = known
        break
      }
      case '--trim-window': {
        const text = value()
        const size = wholeNumber(text, 0, Number.MAX_SAFE_INTEGER)
        if (size === undefined) return { error: `--trim-window takes a whole number of messages${text === undefined ? '' : ` (got "${text}")`}.` }
        trimWindow = size
        break
      }
      case '--format': {
        const chosen = value()
        if (chosen !== 'auto' && !(LOG_FORMATS as readonly (string | undefined)[]).includes(chosen)) {
          return { error: `--format takes one of auto, ${LOG_FORMATS.join(', ')}${chosen === undefined ? '' : ` (got "${chosen}")`}.` }
        }
        format = chosen as ReplayArgs['format']
        break
      }
      case '--tools':
        tools = value()
        if (tools === undefined) return { error: '--tools takes a file name.' }
        break
      case '--conversation':
        conversation = value()
        if (conversation === undefined) return { error: '--conversation takes an index or an id.' }
        break
      default:
        if (arg.startsWith('-') && arg !== '-') return { error: `unknown option "${arg}".` }
        logs.push(arg)
    }
  }
  if (logs.length === 0) return { error: 'missing LOG (a file name, a directory, or - for standard input).' }
  if (logs.length > 1 && logs.includes('-')) return { error: 'standard input (-) cannot be combined with other LOG files.' }
  if (exportTo !== undefined && (summary || check)) return { error: '--export prints conversations; it cannot be combined with --summary or --check.' }
  return {
    logs,
    format,
    summary,
    check,
    json,
    ...(exportTo !== undefined ? { export: exportTo } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(conversation !== undefined ? { conversation } : {}),
    ...(trimWindow !== undefined ? { trimWindow } : {}),
  }
}

async function read(io: CliIO, path: string): Promise<{ ok: true; value: string } | { ok: false; error: string }> {
  try {
    return { ok: true, value: path === '-' ? await io.readStdin() : await io.readFile(path) }
  } catch (error) {
    return { ok: false, error: errorMessage(error) }
  }
}

/** File names a directory import reads; anything else there (README.md, licences) is left out. */
const LOG_EXTENSIONS = /\.(json|jsonl|ndjson|sse|txt)$/i

/** Reads every LOG argument: files as they are, directories as the log files they hold. */
/** A log file as read, with the path it was read from (`-` for stdin): `name` is only its last part. */
interface ReadLog extends LogFile {
  path: string
}

/**
 * Why a workspace among the logs is refused, and the exact command that opens it: `toolstep run`
 * takes one workspace file, so a folder's workspace is named by its own path, and a workspace
 * on stdin (which `run` cannot read) has to be saved first.
 */
function workspaceRefusal(files: readonly ReadLog[], at: number): string {
  const file = files[at]
  if (!file) return 'a Toolstep workspace is not a log.'
  const others = files.filter((other, i) => i !== at && isWorkspaceText(other.text)).length
  const more = others === 0 ? '' : ` (and ${others} more ${others === 1 ? 'file is a workspace' : 'files are workspaces'}; \`toolstep run\` takes one at a time)`
  if (file.path === '-') return `stdin is a Toolstep workspace, not a log: save it to a file and open that with \`toolstep run FILE\`${more}.`
  return `${file.path} is a Toolstep workspace, not a log: open it with \`toolstep run ${shellWord(file.path)}\`${more}.`
}

/** `path` as one shell word: as it is when it is plain, else in single quotes. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}

async function readLogs(io: CliIO, paths: readonly string[]): Promise<{ ok: true; value: ReadLog[] } | { ok: false; error: string }> {
  const files: ReadLog[] = []
  for (const path of paths) {
    const listed = path === '-' || !io.listDirectory ? null : await io.listDirectory(path).catch(() => null)
    const names = listed ? listed.filter((name) => LOG_EXTENSIONS.test(name)) : [path]
    if (listed && names.length === 0) return { ok: false, error: `${path}: the directory holds no .json, .jsonl, .ndjson, .sse or .txt file.` }
    for (const name of names) {
      const text = await read(io, name)
      if (!text.ok) return { ok: false, error: `cannot read ${name}: ${text.error}` }
      files.push({ name: name === '-' ? 'stdin' : (name.split(/[\\/]/).pop() ?? name), path: name, text: text.value })
    }
  }
  // A log piped in alone has no name to label its conversation with.
  if (files.length === 1 && files[0]?.path === '-') files[0].name = ''
  return { ok: true, value: files }
}

/** The conversation a recorded session holds: its leading messages, then everything backfilled. */
function messagesOf(events: readonly SessionEvent[]): Message[] {
  return events.flatMap((event) => (event.type === 'session.started' || event.type === 'backfill.completed' ? event.messages : []))
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function formatSummary(format: LogFormat, summary: ReplaySummary, conversations: readonly Replayed[]): string {
  const lines = [
    `${format}: ${plural(summary.conversations, 'conversation')}, ${plural(summary.messages, 'message')}, ${plural(summary.toolCalls, 'tool call')}, ${plural(summary.toolResults, 'tool result')}`,
  ]
  if (summary.anomalies.length === 0) {
    lines.push('No anomalies.')
    return `${lines.join('\n')}\n`
  }
  const affected = new Set(summary.anomalies.map((anomaly) => anomaly.conversation)).size
  const count = summary.anomalies.length
  lines.push(`${count} ${count === 1 ? 'anomaly' : 'anomalies'} in ${plural(affected, 'conversation')}:`)
  const byCode = new Map<string, number>()
  for (const anomaly of summary.anomalies) byCode.set(anomaly.code, (byCode.get(anomaly.code) ?? 0) + 1)
  for (const [code, count] of byCode) lines.push(`  ${code.padEnd(26)} ${count}`)
  lines.push('')
  for (const anomaly of summary.anomalies) {
    const conversation = conversations[anomaly.conversation]
    lines.push(`conversation ${anomaly.conversation} (${conversation?.label ?? '?'}), message ${anomaly.message}: ${anomaly.code}: ${anomaly.detail}`)
  }
  return `${lines.join('\n')}\n`
}

function formatConversation(index: number, conversation: Replayed): string {
  const lines = [`# conversation ${index} · ${conversation.label} · ${plural(conversation.messages.length, 'message')}`]
  for (const event of conversation.events()) {
    const summary = describeEvent(event)
    lines.push(`${String(event.seq).padStart(4)}  ${summary.phase.padEnd(8)} ${summary.title} — ${summary.detail}`)
    for (const flag of event.anomalies ?? []) lines.push(`${' '.repeat(16)}! ${flag.code}: ${flag.detail}`)
  }
  return `${lines.join('\n')}\n\n`
}
