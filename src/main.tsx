import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserSandbox } from './sandbox/browser-sandbox'
import { createLogImportHost } from './sandbox/log-import-host'
import { createPlayground } from './store/playground'
import { memoryStorage, type KeyValueStorage } from './store/storage'
import { App } from './ui/App'
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

const tab = tabStorage()
const playground = createPlayground({
  createSandbox: () => createBrowserSandbox(),
  createImportHost: () => createLogImportHost(),
  storage: browserStorage(),
  ...(tab ? { tabStorage: tab } : {}),
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PlaygroundProvider playground={playground}>
      <App />
    </PlaygroundProvider>
  </StrictMode>,
)
