/**
 * Turns a dropped or chosen file into what it is: a Toolstep session (shown as it was),
 * a workspace (loaded into the editors), an OpenAI `tools` file (schemas for replay checks),
 * or a foreign log (replayed). A file that is none of these leaves everything open untouched.
 *
 * Every file is read in the log-import worker, never on the page: logs can be tens of
 * megabytes. The worker keeps the log's conversations; the page holds only their index and
 * the events of the open one. Session, workspace and tools files come back as text and are
 * opened here, as they are small.
 */
import { readSession } from '../core/files/session-file'
import { readWorkspace } from '../core/files/workspace-file'
import type { ToolSpec } from '../core/tools/types'
import { importOpenAITools } from '../core/trace/index'
import { createLogImportHost, type LogImportHost, type ProgressListener } from '../sandbox/log-import-host'
import { reset, showLog } from './run-controller'
import { useReplay } from './replay-store'
import { useWorkspace } from './workspace-store'

/** What happened to an imported file, phrased for a toast. */
export type ImportOutcome = { ok: true; message: string } | { ok: false; message: string }

/** The worker holding the open log. */
let host: LogImportHost | null = null
/** The worker of an import in progress; it replaces `host` only when the import succeeds. */
let incoming: LogImportHost | null = null
/** Bumped by each `openConversation`, so a slow reply for an older choice is dropped. */
let openGeneration = 0

/** Opens conversation `index` of the imported log in the timeline. Resolves when it is shown (or superseded). */
export async function openConversation(index: number): Promise<void> {
  const { conversations, tools } = useReplay.getState()
  if (!host || !conversations[index]) return
  const mine = ++openGeneration
  useReplay.setState({ selected: index })
  const reply = await host.replay(index, tools)
  if (mine !== openGeneration || !reply.ok) return
  showLog(reply.events, 'replay', null, 0)
}

/** Conversation indexes whose text, id, label, tool names or anomaly codes contain `text`; `null` when no log is open. */
export async function searchConversations(text: string): Promise<number[] | null> {
  return host ? host.search(text) : null
}

/** Abandons the import in progress, if any; the open log stays as it was. */
export function cancelImport(): void {
  incoming?.dispose()
  incoming = null
  useReplay.setState({ importing: null })
}

/** Forgets the loaded tools file and re-checks the log without it. */
export async function clearReplayTools(): Promise<void> {
  useReplay.setState({ tools: null, toolsFileName: null })
  await recheck(null, 'the log’s own tool definitions')
}

/** Leaves the replay: back to an empty playground timeline. */
export function closeReplay(): void {
  host?.dispose()
  host = null
  openGeneration++
  useReplay.setState({ fileName: null, format: null, conversations: [], selected: -1 })
  reset()
}

/** Re-checks every conversation of the open log against `tools` and reopens the open one. */
async function recheck(tools: ToolSpec[] | null, what: string): Promise<void> {
  const current = host
  if (!current) return
  useReplay.setState({ importing: { fileName: what, stage: 'checking', fraction: 0, cancellable: false } })
  const reply = await current.reindex(tools, progressInto(what, false))
  if (host !== current) return
  useReplay.setState({ importing: null })
  if (reply.kind === 'log') useReplay.setState({ conversations: reply.conversations })
  const { selected } = useReplay.getState()
  if (selected >= 0) await openConversation(selected)
}

function progressInto(fileName: string, cancellable: boolean): ProgressListener {
  return (stage, fraction) => useReplay.setState({ importing: { fileName, stage, fraction, cancellable } })
}

/**
 * Opens a Toolstep session, workspace or OpenAI tools file from its text. Never throws;
 * anything else is reported as not recognised.
 */
export function importText(fileName: string, text: string): ImportOutcome {
  let data: unknown
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    return { ok: false, message: `${fileName}: not valid JSON (${error instanceof Error ? error.message : String(error)}).` }
  }
  const format = typeof data === 'object' && data !== null ? (data as { format?: unknown }).format : undefined

  if (format === 'toolstep.session') {
    const session = readSession(data)
    if (!session.ok) return { ok: false, message: `${fileName}: ${session.error}` }
    if (session.value.workspace) useWorkspace.getState().loadWorkspace(session.value.workspace)
    const replayed = session.value.events[0]?.type === 'session.started' && session.value.events[0].source === 'replay'
    showLog(session.value.events, replayed ? 'replay' : 'live', session.value.workspace, session.value.events.length - 1)
    return { ok: true, message: `Opened session ${fileName} (${session.value.events.length} events).` }
  }
  if (format === 'toolstep.workspace') {
    const workspace = readWorkspace(text)
    if (!workspace.ok) return { ok: false, message: `${fileName}: ${workspace.error}` }
    useWorkspace.getState().loadWorkspace(workspace.value)
    return { ok: true, message: `Loaded workspace ${fileName}.` }
  }
  if (Array.isArray(data) && data.length > 0 && data.every((t) => typeof t === 'object' && t !== null && (t as { type?: unknown }).type === 'function')) {
    const tools = importOpenAITools(text)
    if (!tools.ok) return { ok: false, message: `${fileName}: ${tools.error}` }
    useReplay.setState({ tools: tools.tools, toolsFileName: fileName })
    void recheck(tools.tools, fileName)
    return { ok: true, message: `Loaded ${tools.tools.length} tool schemas from ${fileName}; replayed calls are now checked against them.` }
  }
  return { ok: false, message: `${fileName}: not a Toolstep session, workspace or tools file.` }
}

/** Reads a `File` from an input or a drop, in the import worker, with progress in `useReplay.importing`. */
export async function importFile(file: File): Promise<ImportOutcome> {
  cancelImport()
  const next = createLogImportHost()
  incoming = next
  useReplay.setState({ importing: { fileName: file.name, stage: 'reading', fraction: 0, cancellable: true } })
  const reply = await next.importFile(file, useReplay.getState().tools, (stage, fraction) => {
    if (incoming === next) progressInto(file.name, true)(stage, fraction)
  })
  if (incoming === next) {
    incoming = null
    useReplay.setState({ importing: null })
  }
  switch (reply.kind) {
    case 'cancelled':
      return { ok: true, message: `Import of ${file.name} cancelled; nothing was changed.` }
    case 'failed':
      next.dispose()
      return { ok: false, message: `${file.name}: ${reply.error}` }
    case 'passthrough':
      next.dispose()
      return importText(file.name, reply.text)
    case 'log': {
      host?.dispose()
      host = next
      useReplay.setState({ fileName: file.name, format: reply.format, conversations: reply.conversations, selected: -1 })
      await openConversation(0)
      const count = reply.conversations.length
      return { ok: true, message: `Imported ${count.toLocaleString('en')} conversation${count === 1 ? '' : 's'} from ${file.name}.` }
    }
  }
}

/** Imports several files in turn (e.g. a log and its tools file dropped together): tools files last, so they apply to the log. */
export async function importFiles(files: readonly File[]): Promise<ImportOutcome> {
  const ordered = [...files].sort((a, b) => Number(/tools/i.test(a.name)) - Number(/tools/i.test(b.name)))
  const outcomes: ImportOutcome[] = []
  for (const file of ordered) outcomes.push(await importFile(file))
  if (outcomes.length === 1) return outcomes[0]!
  return { ok: outcomes.every((o) => o.ok), message: outcomes.map((o) => o.message).join('\n') }
}
