/**
 * Turns a dropped or chosen file into what it is: a Toolstep session (shown as it was),
 * a workspace (loaded into the editors), an OpenAI `tools` file (schemas for replay checks),
 * or a foreign log (replayed). A file that is none of these leaves everything open untouched.
 *
 * Every file is read in the log-import worker, never on the page: logs can be tens of
 * megabytes. The worker keeps the log's conversations; the page holds only their index and
 * the events of the open one. Session, workspace and tools files come back as text and are
 * opened here, as they are small. The log importers this needs on the page (tools files,
 * capture names) load on the first import, not with the page.
 */
import { readSession } from '../core/files'
import { readWorkspace } from '../core/files'
import type { ToolSpec } from '../core/tools'
import type { StoreApi } from 'zustand/vanilla'
import type { ImportReply, LogImportHost, ProgressListener } from '../sandbox/log-import-host'
import type { ReplayState } from './replay-store'
import type { RunController } from './run-controller'
import { isJsonObject, parseJsonText, phraseRef } from '../core/util'
import { PARSE_TEXT } from '../core/catalogue'
import type { WorkspaceState } from './workspace-store'
import type { Phrase, PhraseParams } from '../core/util'
import { storeMessage, storePhrase, type StoreTextKey } from './messages'

/**
 * What happened to an imported file, for a toast: `message` in English, and the same as
 * `phrases` (keys of STORE_TEXT, one per line) for the UI to translate.
 */
export type ImportOutcome = { ok: boolean; message: string; phrases: readonly Phrase[] }
// An empty message (and no phrases) when the user is being asked instead.

/** A file's name, or what stands for one (`4 files`): the English, and the phrase of STORE_TEXT the UI translates. */
interface FileLabel {
  name: string
  phrase?: Phrase
}

/** `label` as a phrase parameter: its phrase (nested in the outcome's), else the name as it is. */
function fileParam(label: FileLabel): string | Phrase {
  return label.phrase ?? label.name
}

/** A label worded by STORE_TEXT's `key`. */
function labelOf(key: StoreTextKey, params?: PhraseParams): FileLabel {
  const phrase = storePhrase(key, params)
  return { name: storeMessage([phrase]), phrase }
}

function outcome(ok: boolean, key: StoreTextKey, params: PhraseParams): ImportOutcome {
  const phrases = [storePhrase(key, params)]
  return { ok, message: storeMessage(phrases), phrases }
}

/**
 * A workspace or session file its schema refused: the English says it as the reader did, the
 * phrase nests the reader's own (`file.` names its catalogue, FILE_TEXT), so the UI translates it.
 */
function refused(file: string, read: { error: string; phrase?: Phrase }): ImportOutcome {
  const english = outcome(false, 'fileError', { file, error: read.error })
  return read.phrase ? { ...english, phrases: [storePhrase('fileError', { file, error: { ...read.phrase, key: `file.${read.phrase.key}` } })] } : english
}

/** What the import controller works with. */
export interface ImportControllerDeps {
  replay: StoreApi<ReplayState>
  workspace: StoreApi<WorkspaceState>
  runner: RunController
  /** Starts a log-import worker (one per import). */
  createImportHost(): LogImportHost
  /**
   * Puts a file's workspace into the editors by calling `load`. The app asks first when that
   * would replace edited code (and makes it undoable); returns `'asked'` when `load` waits for
   * that answer. Without it, `load` runs at once.
   */
  replaceWorkspace?(title: string, load: () => void): 'replaced' | 'asked'
}

/** Import of files and navigation in an imported log. */
export interface ImportController {
  /** Opens conversation `index` of the imported log in the timeline. Resolves when it is shown (or superseded). */
  openConversation(index: number): Promise<void>
  /** Conversation indexes whose text, id, label, tool names or anomaly codes contain `text`; `null` when no log is open. */
  searchConversations(text: string): Promise<number[] | null>
  /** Abandons the import in progress, if any; the open log stays as it was. */
  cancelImport(): void
  /** Forgets the loaded tools file and re-checks the log without it. */
  clearReplayTools(): Promise<void>
  /** Leaves the replay: back to an empty playground timeline. */
  closeReplay(): void
  /**
   * Opens a Toolstep session, workspace or OpenAI tools file from its text. Never rejects;
   * anything else is reported as not recognised. Asynchronous because the tools-file reader
   * (with the log importers) loads on first use.
   */
  importText(fileName: string, text: string): Promise<ImportOutcome>
  /** Reads a file (a `File` from an input or a drop) in the import worker, with progress in the replay slice's `importing`. */
  importFile(file: Blob & { readonly name: string }): Promise<ImportOutcome>
  /**
   * Imports several files: recorded request/response bodies (`NAME[.N].request|response.EXT`)
   * together as one log, then any other file in turn (e.g. a log and its tools file dropped
   * together), tools files last so they apply to the log.
   */
  importFiles(files: readonly (Blob & { readonly name: string })[]): Promise<ImportOutcome>
  /** Stops the workers. */
  dispose(): void
}

/** An import controller; it owns the log-import workers. */
export function createImportController(deps: ImportControllerDeps): ImportController {
  const { replay, workspace, runner } = deps
  const replaceWorkspace = deps.replaceWorkspace ?? ((_title: string, load: () => void) => (load(), 'replaced' as const))
  /** The worker holding the open log. */
  let host: LogImportHost | null = null
  /** The worker of an import in progress; it replaces `host` only when the import succeeds. */
  let incoming: LogImportHost | null = null
  /** Bumped by each `openConversation`, so a slow reply for an older choice is dropped. */
  let openGeneration = 0

  async function openConversation(index: number): Promise<void> {
    const { conversations, tools } = replay.getState()
    if (!host || !conversations[index]) return
    const mine = ++openGeneration
    replay.setState({ selected: index })
    const reply = await host.replay(index, tools)
    if (mine !== openGeneration || !reply.ok) return
    runner.showLog(reply.events, 'replay', null, 0)
  }

  function cancelImport(): void {
    incoming?.dispose()
    incoming = null
    replay.setState({ importing: null })
  }

  /** Re-checks every conversation of the open log against `tools` and reopens the open one. */
  async function recheck(tools: ToolSpec[] | null, what: FileLabel): Promise<void> {
    const current = host
    if (!current) return
    replay.setState({ importing: { ...progressName(what), stage: 'checking', fraction: 0, cancellable: false } })
    const reply = await current.reindex(tools, progressInto(what, false))
    if (host !== current) return
    replay.setState({ importing: null })
    if (reply.kind === 'log') replay.setState({ conversations: reply.conversations })
    const { selected } = replay.getState()
    if (selected >= 0) await openConversation(selected)
  }

  function progressInto(label: FileLabel, cancellable: boolean): ProgressListener {
    return (stage, fraction) => replay.setState({ importing: { ...progressName(label), stage, fraction, cancellable } })
  }

  function progressName(label: FileLabel): { fileName: string; fileNamePhrase?: Phrase } {
    return label.phrase ? { fileName: label.name, fileNamePhrase: label.phrase } : { fileName: label.name }
  }

  async function importText(fileName: string, text: string): Promise<ImportOutcome> {
    const parsed = parseJsonText(text)
    if (!parsed.ok) return outcome(false, 'fileError', { file: fileName, error: phraseRef('parse', parsed.errorPhrase, PARSE_TEXT) })
    const data = parsed.value
    const format = isJsonObject(data) ? data['format'] : undefined

    if (format === 'toolstep.session') {
      const session = readSession(data)
      if (!session.ok) return refused(fileName, session)
      const loaded = session.value.workspace
      // The session is shown either way; only its code going into the editors may wait for an answer.
      if (loaded) replaceWorkspace(fileName, () => workspace.getState().loadWorkspace(loaded))
      const replayed = session.value.events[0]?.type === 'session.started' && session.value.events[0].source === 'replay'
      runner.showLog(session.value.events, replayed ? 'replay' : 'live', session.value.workspace, session.value.events.length - 1)
      return outcome(true, 'openedSession', { file: fileName, count: session.value.events.length })
    }
    if (format === 'toolstep.workspace') {
      const read = readWorkspace(text)
      if (!read.ok) return refused(fileName, read)
      const loaded = read.value
      const how = replaceWorkspace(fileName, () => workspace.getState().loadWorkspace(loaded))
      // Asked instead: the answer is the message, no toast.
      return how === 'asked' ? { ok: true, message: '', phrases: [] } : outcome(true, 'loadedWorkspace', { file: fileName })
    }
    if (Array.isArray(data) && data.length > 0 && data.every((t) => typeof t === 'object' && t !== null && (t as { type?: unknown }).type === 'function')) {
      const { importOpenAITools } = await import('../core/trace/import-log')
      const tools = importOpenAITools(text)
      if (!tools.ok) return outcome(false, 'fileError', { file: fileName, error: tools.errorPhrase ?? tools.error })
      replay.setState({ tools: tools.tools, toolsFileName: fileName })
      void recheck(tools.tools, { name: fileName })
      return outcome(true, 'loadedTools', { file: fileName, count: tools.tools.length })
    }
    return outcome(false, 'notToolstepFile', { file: fileName })
  }

  async function importFile(file: Blob & { readonly name: string }): Promise<ImportOutcome> {
    return importWith({ name: file.name }, (next, onProgress) => next.importFile(file, replay.getState().tools, onProgress), true)
  }

  /** Reads recorded request/response files of one session (`NAME.1.request.json`, `NAME.1.response.sse`, …) as one log. */
  async function importCapture(files: readonly (Blob & { readonly name: string })[]): Promise<ImportOutcome> {
    const label = files.length === 1 ? { name: files[0]!.name } : labelOf('filesLabel', { n: files.length })
    return importWith(label, (next, onProgress) => next.importFiles(files.map((file) => ({ name: file.name, file })), replay.getState().tools, onProgress), false)
  }

  async function importWith(label: FileLabel, start: (host: LogImportHost, onProgress: ProgressListener) => Promise<ImportReply>, single: boolean): Promise<ImportOutcome> {
    cancelImport()
    const next = deps.createImportHost()
    incoming = next
    replay.setState({ importing: { ...progressName(label), stage: 'reading', fraction: 0, cancellable: true } })
    const reply = await start(next, (stage, fraction) => {
      if (incoming === next) progressInto(label, true)(stage, fraction)
    })
    if (incoming === next) {
      incoming = null
      replay.setState({ importing: null })
    }
    switch (reply.kind) {
      case 'cancelled':
        return outcome(true, 'importCancelled', { file: fileParam(label) })
      case 'failed':
        next.dispose()
        return outcome(false, 'fileError', { file: fileParam(label), error: reply.errorPhrase ?? reply.error })
      case 'passthrough':
        next.dispose()
        return single ? importText(label.name, reply.text) : outcome(false, 'notInCapture', { file: fileParam(label) })
      case 'log': {
        host?.dispose()
        host = next
        replay.setState({ fileName: label.name, fileNamePhrase: label.phrase ?? null, format: reply.format, conversations: reply.conversations, selected: -1 })
        await openConversation(0)
        const count = reply.conversations.length
        return outcome(true, 'imported', { file: fileParam(label), count, n: count.toLocaleString('en') })
      }
    }
  }

  return {
    openConversation,
    searchConversations: async (text) => (host ? host.search(text) : null),
    cancelImport,
    async clearReplayTools() {
      replay.setState({ tools: null, toolsFileName: null })
      await recheck(null, labelOf('logOwnTools'))
    },
    closeReplay() {
      host?.dispose()
      host = null
      openGeneration++
      replay.setState({ fileName: null, fileNamePhrase: null, format: null, conversations: [], selected: -1 })
      runner.reset()
    },
    importText,
    importFile,
    async importFiles(files) {
      // Recorded request/response bodies (NAME[.N].request|response.EXT) import together as one log.
      const { captureName } = await import('../core/trace/capture-files')
      const captured = files.filter((file) => captureName(file.name) !== undefined)
      const capture = captured.length > 1 ? captured : []
      const rest = files.filter((file) => !capture.includes(file))
      const ordered = [...rest].sort((a, b) => Number(/tools/i.test(a.name)) - Number(/tools/i.test(b.name)))
      const outcomes: ImportOutcome[] = []
      if (capture.length > 0) outcomes.push(await importCapture(capture))
      for (const file of ordered) outcomes.push(await importFile(file))
      if (outcomes.length === 1) return outcomes[0]!
      return { ok: outcomes.every((o) => o.ok), message: outcomes.map((o) => o.message).filter((m) => m !== '').join('\n'), phrases: outcomes.flatMap((o) => o.phrases) }
    },
    dispose() {
      cancelImport()
      host?.dispose()
      host = null
      openGeneration++
    },
  }
}
