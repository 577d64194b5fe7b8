/**
 * The workbench: the playground (stores, sandbox, engine) and every panel. The page's entry
 * (main.tsx) paints the frame first and loads this chunk at once beside the locale, so what the
 * first paint waits for stays small.
 */
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { createBrowserSandbox } from './sandbox/browser-sandbox'
import { createLogImportHost } from './sandbox/log-import-host'
import { createPlayground, type Playground } from './store/playground'
import { createPhaseOffload, spawnPhaseWorker } from './store/engine-phases'
import { memoryStorage, type KeyValueStorage } from './store/storage'
import { App } from './ui/App'
import { coreEnglish } from './ui/i18n/core-text'
import { addEnglish, prefetchLanguages } from './ui/i18n/lazy'
import { prefetchLater } from './ui/lazy-panels'
import { TeachProvider } from './ui/teach/teach-context'
import { createTeachStore } from './ui/teach/teach-store'
import { PlaygroundProvider } from './ui/playground-context'
import { replaceWorkspace } from './ui/example-switch'

/** localStorage, or memory when the browser refuses it (reading the property can throw). */
function browserStorage(): KeyValueStorage {
  try {
    return window.localStorage
  } catch {
    return memoryStorage()
  }
}

/** sessionStorage (for an API key remembered for this tab only), or none when refused. */
function tabStorage(): KeyValueStorage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

const storage = browserStorage()
const tab = tabStorage()
const playground: Playground = createPlayground({
  createSandbox: () => createBrowserSandbox(),
  createImportHost: () => createLogImportHost(),
  // Big turns are parsed and validated in a worker, so the page never waits on them.
  phases: createPhaseOffload({ spawn: spawnPhaseWorker }),
  // An imported workspace or session replaces edited code only when the user says so, undoably.
  replaceWorkspace: (title, load) => replaceWorkspace(playground, title, load, { resetOnUndo: false }),
  storage,
  ...(tab ? { tabStorage: tab } : {}),
})
const teach = createTeachStore(storage)
// A reload or a closed tab is not a crash: only a page that ends without pagehide leaves the
// crash-loop guard's marker behind.
window.addEventListener('pagehide', () => playground.pageHidden())
window.addEventListener('pageshow', (event) => {
  if (event.persisted) playground.pageShown()
})

/** The playground's providers around {@link App}; the page's i18next instance comes from above. */
export default function Workbench() {
  const { i18n } = useTranslation()
  // Core's English (timeline phrases, wire-format labels, anomaly titles…) lives in the modules
  // of this chunk; it joins the English resources here (at once, or when English is loaded).
  useEffect(() => addEnglish(i18n, { core: coreEnglish() }), [i18n])
  // After the first paint of the real app: the other languages, so a switch needs no request.
  useEffect(() => prefetchLanguages(i18n), [i18n])
  // And, once the page is idle, the panels and store modules that load on first use.
  useEffect(() => prefetchLater(), [])
  return (
    <PlaygroundProvider playground={playground}>
      <TeachProvider store={teach}>
        <App />
      </TeachProvider>
    </PlaygroundProvider>
  )
}
