/**
 * What the user authored: the two source files, the user input and the loop settings.
 * Saved to storage on every change so a reload (or a closed laptop in a workshop) loses
 * nothing. Saving never throws: when the storage is full the edit stays in memory and
 * `saveError` says so; a saved workspace that cannot be read is replaced by defaults only for
 * the fields that failed, and `restoreProblem` keeps the unreadable text for the user to copy.
 *
 * The stored value keeps the envelope zustand's `persist` middleware wrote before
 * (`{"state": {tools, model, input, settings, exampleId}, "version": 1}`), so workspaces saved by
 * earlier versions load unchanged.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { settingsSchema, type Settings, type Workspace } from '../core/files'
import { DEFAULT_MAX_STEPS, loopSettings, type LoopSettings } from '../core/loop'
import { evalCasesSchema, type EvalCase } from '../core/evals'
import { defaultExample, examples } from '../examples/index'
import { errorMessage, type Phrase } from '../core/util'
import { storeMessage, storePhrase } from './messages'
import { isQuotaError, readItem, writeItem, type KeyValueStorage } from './storage'

/** Storage key of the saved workspace. */
export const WORKSPACE_KEY = 'toolstep.workspace'
/** Storage key where an unreadable saved workspace is kept (when it fits) before it is overwritten. */
export const UNREADABLE_WORKSPACE_KEY = 'toolstep.workspace.unreadable'

/** The last save failed; the workspace in memory is newer than the saved one. */
export interface SaveError {
  /** True when the storage is full (`QuotaExceededError`). */
  quota: boolean
  message: string
  /** The storage's own error, when the storage is not simply full. */
  detail?: string
}

/** The saved workspace could not be read in full; these parts were reset to the defaults. */
export interface RestoreProblem {
  /** Names of what was reset: `tools.ts`, `model.ts`, `user input`, `settings`, `example` — or `everything`. */
  reset: string[]
  /** Why, in one sentence. */
  reason: string
  /** `reason` as a phrase of STORE_TEXT (`restorePart` names the parts in `reset`). */
  reasonPhrase: Phrase
  /** The saved text exactly as it was read, for the user to copy. */
  text: string
  /** Whether a copy of `text` was stored under {@link UNREADABLE_WORKSPACE_KEY} (not when the storage is full). */
  keptInStorage?: boolean
}

export interface WorkspaceState {
  tools: string
  model: string
  input: string
  settings: Settings
  /** Eval cases (from a workspace file); empty for an example. */
  cases: EvalCase[]
  /** Example the workspace was loaded from; `custom` once it came from a file. */
  exampleId: string
  /** Set while the workspace in memory could not be saved. */
  saveError: SaveError | null
  /** Set when the saved workspace could not be read in full at start-up, until dismissed. */
  restoreProblem: RestoreProblem | null
  setTools(source: string): void
  setModel(source: string): void
  setInput(input: string): void
  setSettings(patch: Partial<Settings>): void
  /** Changes loop behaviours; nested objects are replaced whole. */
  setLoop(patch: Partial<LoopSettings>): void
  loadExample(id: string): void
  loadWorkspace(workspace: Workspace): void
  dismissRestoreProblem(): void
}

type Saved = Pick<WorkspaceState, 'tools' | 'model' | 'input' | 'settings' | 'cases' | 'exampleId'>

function fromExample(id: string): Saved {
  const example = examples.find((e) => e.id === id) ?? defaultExample
  return {
    tools: example.tools,
    model: example.model,
    input: example.input,
    settings: {
      protocol: example.protocol,
      maxSteps: example.maxSteps ?? DEFAULT_MAX_STEPS,
      systemPrompt: example.systemPrompt ?? '',
      loop: loopSettings((example as { settings?: unknown }).settings),
    },
    cases: [],
    exampleId: example.id,
  }
}

/**
 * The saved workspace in `text` over `defaults`, field by field: whatever fails keeps its
 * default and is named in the returned problem. Never throws.
 */
export function restoreWorkspace(text: string | null, defaults: Saved): { saved: Saved; problem: RestoreProblem | null } {
  if (text === null) return { saved: defaults, problem: null }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { saved: defaults, problem: { reset: ['everything'], ...reasonOf(storePhrase('restoreNotJson', { error: errorMessage(error) })), text } }
  }
  const state = typeof data === 'object' && data !== null ? (data as { state?: unknown }).state : undefined
  if (typeof state !== 'object' || state === null) {
    return { saved: defaults, problem: { reset: ['everything'], ...reasonOf(storePhrase('restoreNotFormat')), text } }
  }
  const stored = state as Partial<Record<keyof Saved, unknown>>
  const reset: string[] = []
  const text_ = (key: 'tools' | 'model' | 'input' | 'exampleId', label: string): string => {
    const value = stored[key]
    if (typeof value === 'string') return value
    reset.push(label)
    return defaults[key]
  }
  const saved: Saved = {
    tools: text_('tools', 'tools.ts'),
    model: text_('model', 'model.ts'),
    input: text_('input', 'user input'),
    exampleId: text_('exampleId', 'example'),
    settings: defaults.settings,
    cases: defaults.cases,
  }
  const settings = settingsSchema.safeParse(stored.settings)
  if (settings.success) saved.settings = settings.data
  else reset.push('settings')
  // Saved before evals existed: no cases.
  if (stored.cases !== undefined) {
    const cases = evalCasesSchema.safeParse(stored.cases)
    if (cases.success) saved.cases = cases.data
    else reset.push('eval cases')
  }
  if (reset.length === 0) return { saved, problem: null }
  return { saved, problem: { reset, ...reasonOf(storePhrase('restorePart', { parts: reset.join(', ') })), text } }
}

function reasonOf(phrase: Phrase): { reason: string; reasonPhrase: Phrase } {
  return { reason: storeMessage([phrase]), reasonPhrase: phrase }
}

/**
 * A workspace slice saved to `storage` under {@link WORKSPACE_KEY}, restored from it now.
 * An unreadable saved text is copied to {@link UNREADABLE_WORKSPACE_KEY} (when it fits) before
 * the first save overwrites it.
 */
export function createWorkspaceStore(storage: KeyValueStorage): StoreApi<WorkspaceState> {
  const text = readItem(storage, WORKSPACE_KEY)
  const restored = restoreWorkspace(text, fromExample(defaultExample.id))
  const { saved } = restored
  // The dialog says the text is kept in storage only when it was.
  const problem = restored.problem && { ...restored.problem, keptInStorage: writeItem(storage, UNREADABLE_WORKSPACE_KEY, restored.problem.text).ok }

  const store = createStore<WorkspaceState>()((set) => ({
    ...saved,
    saveError: null,
    restoreProblem: problem,
    setTools: (tools) => set({ tools }),
    setModel: (model) => set({ model }),
    setInput: (input) => set({ input }),
    setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
    setLoop: (patch) => set((s) => ({ settings: { ...s.settings, loop: { ...s.settings.loop, ...patch } } })),
    loadExample: (id) => set(fromExample(id)),
    loadWorkspace: (w) => set({ tools: w.tools, model: w.model, input: w.input, settings: w.settings, cases: w.cases ?? [], exampleId: 'custom' }),
    dismissRestoreProblem: () => set({ restoreProblem: null }),
  }))

  store.subscribe((state, previous) => {
    const changed = state.tools !== previous.tools || state.model !== previous.model || state.input !== previous.input || state.settings !== previous.settings || state.cases !== previous.cases || state.exampleId !== previous.exampleId
    if (!changed) return
    const value = JSON.stringify({ state: { tools: state.tools, model: state.model, input: state.input, settings: state.settings, ...(state.cases.length > 0 ? { cases: state.cases } : {}), exampleId: state.exampleId }, version: 1 })
    const written = writeItem(storage, WORKSPACE_KEY, value)
    if (written.ok) {
      if (state.saveError) store.setState({ saveError: null })
      return
    }
    const quota = isQuotaError(written.error)
    store.setState({
      saveError: {
        quota,
        ...(quota ? {} : { detail: errorMessage(written.error) }),
        message: quota
          ? 'The browser’s storage for this page is full, so your latest changes are not saved. They are kept in this tab: export the workspace to keep them.'
          : `Your latest changes could not be saved (${errorMessage(written.error)}). They are kept in this tab: export the workspace to keep them.`,
      },
    })
  })
  return store
}

/** The workspace as a plain value (what the workspace file stores). */
export function currentWorkspace(store: StoreApi<WorkspaceState>): Workspace {
  const s = store.getState()
  return { format: 'toolstep.workspace', version: 1, tools: s.tools, model: s.model, input: s.input, settings: s.settings, ...(s.cases.length > 0 ? { cases: s.cases } : {}) }
}
