import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { createBrowserSandbox } from './sandbox/browser-sandbox'
import { createLogImportHost } from './sandbox/log-import-host'
import { createPlayground } from './store/playground'
import { memoryStorage, type KeyValueStorage } from './store/storage'
import { App } from './ui/App'
import { createI18n } from './ui/i18n/index'
import { TeachProvider } from './ui/teach/teach-context'
import { createTeachStore } from './ui/teach/teach-store'
import { PlaygroundProvider } from './ui/playground-context'
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
const playground = createPlayground({
  createSandbox: () => createBrowserSandbox(),
  createImportHost: () => createLogImportHost(),
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
