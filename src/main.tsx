/**
 * The page's entry: as little as paints the frame. It fetches the active language's locale and
 * the workbench chunk at once, in parallel, paints the frame ({@link AppFrame}) in the user's
 * language as soon as the locale is in, and the workbench replaces it when it arrives.
 */
import { StrictMode, Suspense, lazy } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { AppFrame } from './ui/AppFrame'
import { createLazyI18n } from './ui/i18n/lazy'
import './index.css'

const workbench = import('./workbench')
const Workbench = lazy(() => workbench)

const root = createRoot(document.getElementById('root')!)
// The language's own file failing (the server gone mid-load) falls back to English.
void createLazyI18n()
  .catch(() => createLazyI18n('en'))
  .then((i18n) =>
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <Suspense fallback={<AppFrame />}>
            <Workbench />
          </Suspense>
        </I18nextProvider>
      </StrictMode>,
    ),
  )
