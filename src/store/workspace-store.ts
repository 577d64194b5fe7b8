/**
 * What the user authored: the two source files, the user input and the loop settings.
 * Persisted to localStorage so a reload (or a closed laptop in a workshop) loses nothing.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { settingsSchema, type Settings, type Workspace } from '../core/files/workspace-file'
import { DEFAULT_MAX_STEPS } from '../core/loop/runner'
import { loopSettings, type LoopSettings } from '../core/loop/settings'
import { defaultExample, examples } from '../examples/index'

export interface WorkspaceState {
  tools: string
  model: string
  input: string
  settings: Settings
  /** Example the workspace was loaded from; `custom` once it came from a file. */
  exampleId: string
  setTools(source: string): void
  setModel(source: string): void
  setInput(input: string): void
  setSettings(patch: Partial<Settings>): void
  /** Changes loop behaviours; nested objects are replaced whole. */
  setLoop(patch: Partial<LoopSettings>): void
  loadExample(id: string): void
  loadWorkspace(workspace: Workspace): void
}

function fromExample(id: string): Pick<WorkspaceState, 'tools' | 'model' | 'input' | 'settings' | 'exampleId'> {
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
    exampleId: example.id,
  }
}

export const useWorkspace = create<WorkspaceState>()(
  persist(
    (set) => ({
      ...fromExample(defaultExample.id),
      setTools: (tools) => set({ tools }),
      setModel: (model) => set({ model }),
      setInput: (input) => set({ input }),
      setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
      setLoop: (patch) => set((s) => ({ settings: { ...s.settings, loop: { ...s.settings.loop, ...patch } } })),
      loadExample: (id) => set(fromExample(id)),
      loadWorkspace: (w) => set({ tools: w.tools, model: w.model, input: w.input, settings: w.settings, exampleId: 'custom' }),
    }),
    {
      name: 'toolstep.workspace',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      // Stored state from an older version, or edited by hand, is validated field by field:
      // whatever fails keeps its current value instead of breaking the app.
      merge: (persisted, current) => {
        const stored = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as Partial<WorkspaceState>
        const settings = settingsSchema.safeParse(stored.settings)
        return {
          ...current,
          ...(typeof stored.tools === 'string' ? { tools: stored.tools } : {}),
          ...(typeof stored.model === 'string' ? { model: stored.model } : {}),
          ...(typeof stored.input === 'string' ? { input: stored.input } : {}),
          ...(typeof stored.exampleId === 'string' ? { exampleId: stored.exampleId } : {}),
          ...(settings.success ? { settings: settings.data } : {}),
        }
      },
      partialize: (s) => ({ tools: s.tools, model: s.model, input: s.input, settings: s.settings, exampleId: s.exampleId }),
    },
  ),
)

/** The workspace as a plain value (what the workspace file stores). */
export function currentWorkspace(): Workspace {
  const s = useWorkspace.getState()
  return { format: 'toolstep.workspace', version: 1, tools: s.tools, model: s.model, input: s.input, settings: s.settings }
}
