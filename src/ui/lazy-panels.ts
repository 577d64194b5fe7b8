/**
 * Panels and dialogs not shown at first paint, each its own chunk: React.lazy components that
 * load on first use, and {@link prefetchLater}, which fetches them (and the store's own
 * on-demand modules) once the page is idle after the first paint — so a tab opens at once and
 * keeps working if the app's server goes away later.
 */
import { lazy, type ComponentType } from 'react'

type Loader = () => Promise<unknown>
const loaders: Loader[] = []

/** A lazy component from `load` (a dynamic import) and the named export `pick` of it. */
function panel<P extends object, M>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  loaders.push(load)
  return lazy(() => load().then((module) => ({ default: pick(module) })))
}

export const ParseLab = panel(() => import('./ParseLab'), (m) => m.ParseLab)
export const DiffView = panel(() => import('./diff/DiffView'), (m) => m.DiffView)
export const EvalsView = panel(() => import('./debug/EvalsView'), (m) => m.EvalsView)
export const CompareView = panel(() => import('./debug/CompareView'), (m) => m.CompareView)
export const ConversationList = panel(() => import('./replay/ConversationList'), (m) => m.ConversationList)
export const ConfirmDialog = panel(() => import('./ConfirmDialog'), (m) => m.ConfirmDialog)
export const ShortcutsHelp = panel(() => import('./ShortcutsHelp'), (m) => m.ShortcutsHelp)
export const ExampleSwitchDialog = panel(() => import('./ExampleSwitchDialog'), (m) => m.ExampleSwitchDialog)
export const AnomalyCatalogueDialog = panel(() => import('./anomalies/AnomalyCatalogue'), (m) => m.AnomalyCatalogueDialog)
export const LessonsPanel = panel(() => import('./teach/LessonsPanel'), (m) => m.LessonsPanel)
export const RecordedResponse = panel(() => import('./inspector/RecordedResponse'), (m) => m.RecordedResponse)

// What the store loads on first use (importers on import, the exporters on export).
loaders.push(
  () => import('../core/trace/import-log'),
  () => import('../core/trace/capture-files'),
  () => import('../store/code-export'),
)

/**
 * Fetches every on-demand chunk above once the browser is idle (at most `timeoutMs` after the
 * call). Failures are ignored: first use fetches again. Returns a function that cancels it.
 */
export function prefetchLater(timeoutMs = 2000): () => void {
  const run = () => {
    for (const load of loaders) void load().catch(() => undefined)
  }
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: timeoutMs })
    return () => cancelIdleCallback(handle)
  }
  const handle = setTimeout(run, 0)
  return () => clearTimeout(handle)
}
