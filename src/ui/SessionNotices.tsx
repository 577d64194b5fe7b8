import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { writeWorkspace } from '../core/files'
import { download } from './download'
import { usePlayground, useSession, useWorkspace } from './playground-context'
import { corePhrase, translate } from './i18n/text'
import { RESET_NAMES } from '../store/messages'
import type { RestoreProblem } from '../store/workspace-store'

const button = 'rounded border px-2 py-0.5 text-xs font-medium'

/**
 * What the page must tell the user before anything else: code that never came back last time
 * (and was not re-run), edits that could not be saved, a saved workspace that could not be read.
 */
export function SessionNotices() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const interrupted = useSession((s) => s.interrupted)
  const saveError = useWorkspace((s) => s.saveError)
  const restoreProblem = useWorkspace((s) => s.restoreProblem)
  return (
    <>
      {interrupted && (
        <div role="alert" data-testid="interrupted-notice" className="flex flex-wrap items-center gap-2 border-b border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950">
          <span className="min-w-0 flex-1">
            {interrupted.kind === 'run' ? t('notices.interruptedRun') : t('notices.interruptedLoad')} {t('notices.notStartedAgain')}
          </span>
          <button data-testid="interrupted-rerun" className={`${button} border-amber-600 bg-white hover:bg-amber-100`} onClick={() => void pg.resumeInterrupted()}>
            {interrupted.kind === 'run' ? t('notices.runAgain') : t('notices.loadAgain')}
          </button>
          <button data-testid="interrupted-dismiss" className={`${button} border-amber-300 hover:bg-amber-100`} onClick={pg.dismissInterrupted}>
            {t('notices.dismiss')}
          </button>
        </div>
      )}
      {saveError && (
        <div role="alert" data-testid="save-error" className="flex flex-wrap items-center gap-2 border-b border-red-300 bg-red-50 px-3 py-1.5 text-sm text-red-900">
          <span className="min-w-0 flex-1">{saveError.quota ? t('sessionNotices.storageFull') : t('sessionNotices.saveFailed', { error: saveError.detail ?? saveError.message })}</span>
          <button
            data-testid="save-error-export"
            className={`${button} border-red-600 bg-white hover:bg-red-100`}
            onClick={() => download('toolstep-workspace.json', writeWorkspace(pg.currentWorkspace()))}
          >
            {t('common.export')}
          </button>
        </div>
      )}
      {restoreProblem && <RestoreProblemDialog problem={restoreProblem} onClose={() => pg.stores.workspace.getState().dismissRestoreProblem()} />}
    </>
  )
}

function RestoreProblemDialog({ problem, onClose }: { problem: RestoreProblem; onClose(): void }) {
  const { t } = useTranslation()
  const { text } = problem
  // Files keep their names; the other parts are words, translated.
  const reset = problem.reset.map((name) => (RESET_NAMES[name] ? t(`core.store.${RESET_NAMES[name]}`) : name))
  const { reasonPhrase, keptInStorage } = problem
  const reason = reasonPhrase
    ? translate(t, corePhrase('store', reasonPhrase.key === 'restorePart' ? { key: reasonPhrase.key, params: { parts: reset.join(', ') } } : reasonPhrase))
    : problem.reason
  const area = useRef<HTMLTextAreaElement>(null)
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)

  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setCopied('yes')
    } catch {
      // Clipboard refused (no permission): select the text so Ctrl+C copies it.
      area.current?.select()
      setCopied('no')
    }
  }

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/40 p-4">
      <div role="dialog" aria-modal="true" aria-labelledby="restore-problem-title" data-testid="restore-problem" className="flex max-h-full w-full max-w-2xl flex-col gap-3 rounded-lg bg-white p-4 text-sm shadow-xl">
        <h2 id="restore-problem-title" className="text-base font-semibold">
          {t('notices.restoreTitle')}
        </h2>
        <p>
          <span lang={reasonPhrase ? undefined : 'en'}>{reason}</span> {t('notices.restoreReset')} <strong data-testid="restore-problem-reset">{reset.join(', ')}</strong>.{' '}
          {keptInStorage === false ? (
            t('notices.restoreNotKept')
          ) : (
            <>
              {t('notices.restoreKept')} <code>toolstep.workspace.unreadable</code>
              {t('notices.restoreUntil')}
            </>
          )}
        </p>
        <textarea ref={area} readOnly data-testid="restore-problem-text" value={text} className="h-64 w-full resize-y rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs" />
        <div className="flex items-center gap-2">
          <button data-testid="restore-problem-copy" className={`${button} border-sky-700 bg-sky-600 text-white hover:bg-sky-700`} onClick={() => void copy()}>
            {t('notices.copyText')}
          </button>
          {copied === 'yes' && <span className="text-xs text-slate-600">{t('notices.copied')}</span>}
          {copied === 'no' && <span className="text-xs text-slate-600">{t('notices.noClipboard')}</span>}
          <button data-testid="restore-problem-dismiss" className={`${button} ml-auto border-slate-300 hover:bg-slate-50`} onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </div>
  )
}
