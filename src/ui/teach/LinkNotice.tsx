import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { usePlayground } from '../playground-context'
import { replaceAfterAsking, restorePutAside, usePutAside } from '../example-switch'
import { applyLink, openLinkFragment } from './open-link'
import { useTeach, useTeachStore } from './teach-context'
import { translate, type UiText } from '../i18n/text'

/**
 * Opens a share link in the page's fragment once at start-up, and says what happened: the
 * workspace came from a link (nothing has run), a question before it replaces saved work, or why
 * the link could not be read; also when a link is pasted into an open tab. The fragment is removed
 * afterwards, so a reload does not ask again.
 */
export function LinkNotice() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const teach = useTeachStore()
  const pending = useTeach((s) => s.pendingLink)
  const fromLink = useTeach((s) => s.fromLink)
  // The English error, or its phrase, translated at display (so it follows a language switch).
  const [error, setError] = useState<UiText | null>(null)
  const putAside = usePutAside((s) => s.putAside !== null)

  /** Opens the link's workspace over the user's work, which is put aside (undo, or restore later). */
  function openOverMine(payload: Parameters<typeof applyLink>[2]) {
    const lesson = teach.getState().lessonId
    teach.getState().setPendingLink(null)
    replaceAfterAsking(pg, { key: 'share.linkTitle' }, () => applyLink(pg, teach, payload), {
      undone: () => {
        teach.getState().setFromLink(false)
        teach.getState().selectLesson(lesson)
      },
    })
  }

  useEffect(() => {
    let live = true
    function open() {
      const fragment = window.location.hash
      if (!fragment.startsWith('#share=')) return
      setError(null)
      void openLinkFragment(pg, teach, fragment).then((outcome) => {
        if (!live) return
        if (outcome.kind === 'invalid') setError(outcome.phrase ?? outcome.error)
        history.replaceState(null, '', window.location.pathname + window.location.search)
      })
    }
    open()
    // A link pasted into the address bar of an open tab changes only the fragment.
    window.addEventListener('hashchange', open)
    return () => {
      live = false
      window.removeEventListener('hashchange', open)
    }
  }, [pg, teach])

  if (pending) {
    return (
      <div data-testid="link-ask" role="alertdialog" aria-label={t('share.askOverwrite')} className="flex flex-wrap items-center gap-2 border-b border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
        <span className="min-w-0 flex-1">{t('share.askOverwrite')}</span>
        <button data-testid="link-open" className="rounded border border-amber-600 bg-amber-500 px-2 py-1 font-medium text-white" onClick={() => openOverMine(pending.payload)}>
          {t('share.open')}
        </button>
        <button data-testid="link-keep" className="rounded border border-slate-300 bg-white px-2 py-1" onClick={() => teach.getState().setPendingLink(null)}>
          {t('share.keep')}
        </button>
      </div>
    )
  }
  if (error) {
    return (
      <div data-testid="link-error" role="alert" className="flex items-center gap-2 border-b border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
        <span className="min-w-0 flex-1">{t('share.invalid', { error: translate(t, error) })}</span>
        <button aria-label={t('common.close')} onClick={() => setError(null)}>✕</button>
      </div>
    )
  }
  if (fromLink) {
    return (
      <div data-testid="link-notice" role="status" className="flex items-center gap-2 border-b border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950">
        <span className="min-w-0 flex-1">{t('share.fromLink')}</span>
        {putAside && (
          <button
            data-testid="link-restore"
            className="rounded border border-sky-400 bg-white px-2 py-0.5"
            onClick={() => {
              if (restorePutAside(pg)) teach.getState().setFromLink(false)
            }}
          >
            {t('share.restoreMine')}
          </button>
        )}
        <button aria-label={t('common.close')} onClick={() => teach.getState().setFromLink(false)}>✕</button>
      </div>
    )
  }
  return null
}
