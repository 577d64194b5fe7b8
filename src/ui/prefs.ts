/**
 * How the user arranged the workbench: which timeline view, whether the editors are split or
 * tabbed. Pure presentation, so it lives with the UI and is persisted on its own key.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export type TimelineView = 'phases' | 'conversation'
export type EditorLayout = 'split' | 'tabs'
export type EditorFile = 'tools.ts' | 'model.ts'

export interface UiPrefs {
  timelineView: TimelineView
  editorLayout: EditorLayout
  /** The editor shown when `editorLayout` is `tabs`. */
  editorTab: EditorFile
  /** Whether the loop diagram is shown above the timeline (folded away, the timeline gets its room). */
  diagramOpen: boolean
  /** The same on a short screen (720 px at 150 % zoom), where it starts folded away. */
  diagramOpenShort: boolean
  setTimelineView(view: TimelineView): void
  setDiagramOpen(open: boolean, short: boolean): void
  setEditorLayout(layout: EditorLayout): void
  setEditorTab(file: EditorFile): void
}

export const usePrefs = create<UiPrefs>()(
  persist(
    (set) => ({
      timelineView: 'phases',
      editorLayout: 'split',
      editorTab: 'tools.ts',
      diagramOpen: true,
      diagramOpenShort: false,
      setDiagramOpen: (open, short) => set(short ? { diagramOpenShort: open } : { diagramOpen: open }),
      setTimelineView: (timelineView) => set({ timelineView }),
      setEditorLayout: (editorLayout) => set({ editorLayout }),
      setEditorTab: (editorTab) => set({ editorTab }),
    }),
    {
      name: 'toolstep.ui',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      // A hand-edited or older value falls back to the default instead of breaking the layout.
      merge: (persisted, current) => {
        const p = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as Partial<UiPrefs>
        return {
          ...current,
          ...(p.timelineView === 'phases' || p.timelineView === 'conversation' ? { timelineView: p.timelineView } : {}),
          ...(p.editorLayout === 'split' || p.editorLayout === 'tabs' ? { editorLayout: p.editorLayout } : {}),
          ...(p.editorTab === 'tools.ts' || p.editorTab === 'model.ts' ? { editorTab: p.editorTab } : {}),
          ...(typeof p.diagramOpen === 'boolean' ? { diagramOpen: p.diagramOpen } : {}),
          ...(typeof p.diagramOpenShort === 'boolean' ? { diagramOpenShort: p.diagramOpenShort } : {}),
        }
      },
      partialize: (s) => ({ timelineView: s.timelineView, editorLayout: s.editorLayout, editorTab: s.editorTab, diagramOpen: s.diagramOpen, diagramOpenShort: s.diagramOpenShort }),
    },
  ),
)
