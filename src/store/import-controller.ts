/**
 * Turns a dropped or chosen file into what it is: a Toolstep session (shown as it was),
 * a workspace (loaded into the editors), an OpenAI `tools` file (schemas for replay checks),
 * or a foreign log (replayed). A file that is none of these leaves everything open untouched.
 */
import { readSession } from '../core/files/session-file'
import { readWorkspace } from '../core/files/workspace-file'
import { importLog, importOpenAITools, replayEvents } from '../core/trace/index'
import { reset, showLog } from './run-controller'
import { useReplay } from './replay-store'
import { useWorkspace } from './workspace-store'

/** What happened to an imported file, phrased for a toast. */
export type ImportOutcome = { ok: true; message: string } | { ok: false; message: string }

/** Opens conversation `index` of the imported log in the timeline. */
export function openConversation(index: number): void {
  const { conversations, tools } = useReplay.getState()
  const conversation = conversations[index]
  if (!conversation) return
  useReplay.setState({ selected: index })
  showLog(replayEvents(conversation, { tools: tools ?? conversation.tools ?? undefined }), 'replay', null, 0)
}

/** Forgets the loaded tools file and re-checks the open conversation without it. */
export function clearReplayTools(): void {
  useReplay.setState({ tools: null, toolsFileName: null })
  const { selected } = useReplay.getState()
  if (selected >= 0) openConversation(selected)
}

/** Leaves the replay: back to an empty playground timeline. */
export function closeReplay(): void {
  useReplay.setState({ fileName: null, format: null, conversations: [], selected: -1 })
  reset()
}

/** Reads `text` (the content of `fileName`) and opens it. Never throws. */
export function importText(fileName: string, text: string): ImportOutcome {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    data = undefined // JSONL logs are not one JSON value; the log importer handles them.
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
    const { selected } = useReplay.getState()
    if (selected >= 0) openConversation(selected)
    return { ok: true, message: `Loaded ${tools.tools.length} tool schemas from ${fileName}; replayed calls are now checked against them.` }
  }
  const log = importLog(text)
  if (!log.ok) return { ok: false, message: `${fileName}: ${log.error}` }
  if (log.conversations.length === 0) return { ok: false, message: `${fileName}: the log holds no conversation.` }
  useReplay.setState({ fileName, format: log.format, conversations: log.conversations, selected: -1 })
  openConversation(0)
  return { ok: true, message: `Imported ${log.conversations.length} conversation${log.conversations.length === 1 ? '' : 's'} from ${fileName}.` }
}

/** Reads a `File` from an input or a drop. */
export async function importFile(file: File): Promise<ImportOutcome> {
  try {
    return importText(file.name, await file.text())
  } catch (error) {
    return { ok: false, message: `${file.name}: could not be read (${error instanceof Error ? error.message : String(error)}).` }
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
