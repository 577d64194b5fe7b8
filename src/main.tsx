import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { createBrowserSandbox } from './sandbox/browser-sandbox'
import { createLogImportHost } from './sandbox/log-import-host'
import { createPlayground, type Playground } from './store/playground'
import { memoryStorage, type KeyValueStorage } from './store/storage'
import { App } from './ui/App'
import { createI18n } from './ui/i18n/index'
import { TeachProvider } from './ui/teach/teach-context'
import { createTeachStore } from './ui/teach/teach-store'
import { PlaygroundProvider } from './ui/playground-context'
import { replaceWorkspace } from './ui/example-switch'
import './index.css'

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
  // An imported workspace or session replaces edited code only when the user says so, undoably.
  replaceWorkspace: (title, load) => replaceWorkspace(playground, title, load, { resetOnUndo: false }),
  storage,
  ...(tab ? { tabStorage: tab } : {}),
})
const teach = createTeachStore(storage)

const i18n = createI18n()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <PlaygroundProvider playground={playground}>
        <TeachProvider store={teach}>
          <App />
        </TeachProvider>
      </PlaygroundProvider>
    </I18nextProvider>
  </StrictMode>,
)
