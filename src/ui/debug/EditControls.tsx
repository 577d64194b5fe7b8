import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EditRefusal, EditRequest } from '../../core/debug'
import type { SessionEvent } from '../../core/loop'
import { usePlayground, useRun } from '../playground-context'
import { corePhrase, translate } from '../i18n/text'

type EditApplied = Extract<SessionEvent, { type: 'edit.applied' }>

/** What is being edited: the request without the new text, and the text to start from. */
export interface EditTarget {
  target: EditRequest['target']
  seq: number
  initial: string
  initialError?: boolean
  /** The tool, for a result. */
  name?: string
}

/**
 * Edit and continue: a text box holding the raw output (or the tool result) to change, and
 * *Apply and continue*, which forks the run from there with the edit (`edit.applied`). An edit
 * that does not fit is named under the box and nothing changes.
 */
export function EditBox({ edit, onClose }: { edit: EditTarget; onClose(): void }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  const busy = useRun((s) => s.status === 'running' || s.status === 'loading')
  const [text, setText] = useState(edit.initial)
  const [asError, setAsError] = useState(edit.initialError === true)
  const [error, setError] = useState<EditRefusal | null>(null)
  const [applying, setApplying] = useState(false)
  const changed = text !== edit.initial || asError !== (edit.initialError === true)

  async function apply() {
    setApplying(true)
    setError(null)
    const request: EditRequest = edit.target === 'model_output' ? { target: 'model_output', seq: edit.seq, edited: text } : { target: 'tool_result', seq: edit.seq, edited: text, isError: asError }
    const outcome = await pg.editAndContinue(request)
    setApplying(false)
    if (outcome.ok) onClose()
    else setError(outcome)
  }

  return (
    <div data-testid="edit-box" data-target={edit.target} className="mt-1 flex flex-col gap-1 rounded border border-fuchsia-300 bg-fuchsia-50/50 p-2 text-xs">
      <p className="text-slate-600">{edit.target === 'model_output' ? t('editContinue.outputHint') : t('editContinue.resultHint', { name: edit.name ?? '' })}</p>
      <textarea
        data-testid="edit-text"
        aria-label={edit.target === 'model_output' ? t('editContinue.outputLabel') : t('editContinue.resultLabel', { name: edit.name ?? '' })}
        value={text}
        spellCheck={false}
        rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
        onChange={(e) => setText(e.target.value)}
        className="w-full resize-y rounded border border-slate-300 bg-white p-1.5 font-mono text-xs"
      />
      {edit.target === 'tool_result' && (
        <label className="flex items-center gap-1">
          <input type="checkbox" data-testid="edit-as-error" checked={asError} onChange={(e) => setAsError(e.target.checked)} />
          {t('editContinue.asError')}
        </label>
      )}
      {error && (
        <p data-testid="edit-error" role="alert" className="text-red-700">
          {translate(t, corePhrase(error.errorPhrase.ns, error.errorPhrase))}
        </p>
      )}
      <div className="flex gap-2">
        <button
          data-testid="edit-apply"
          disabled={!changed || busy || applying}
          onClick={() => void apply()}
          className="rounded bg-fuchsia-700 px-2 py-0.5 font-medium text-white hover:bg-fuchsia-800 disabled:opacity-50"
        >
          {t('editContinue.apply')}
        </button>
        <button data-testid="edit-cancel" onClick={onClose} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-white">
          {t('editContinue.cancel')}
        </button>
      </div>
    </div>
  )
}

/** An edit of this turn shown as original beside edited. */
export function EditApplied({ edit }: { edit: EditApplied }) {
  const { t } = useTranslation()
  const what = edit.target === 'model_output' ? t('editContinue.editedOutput') : t('editContinue.editedResult', { name: edit.name ?? edit.callId ?? '' })
  return (
    <div data-testid="edit-applied" data-target={edit.target} className="flex flex-col gap-1 text-xs">
      <p className="font-medium text-fuchsia-900">
        {what} <span className="font-normal text-slate-500">· {t('editContinue.forkNote')}</span>
      </p>
      <div className="grid grid-cols-1 gap-2 xl:grid-cols-2">
        <div className="min-w-0">
          <div className="text-[10px] font-semibold uppercase tracking-wide text-slate-400">{edit.originalError ? t('editContinue.originalError') : t('editContinue.original')}</div>
          <pre data-testid="edit-original" className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-red-50 p-1.5 font-mono text-red-900 line-through decoration-red-300 [overflow-wrap:anywhere]">
            {edit.original}
          </pre>
        </div>
        <div className="min-w-0">
          <div className="text-[10px] font-semibold uppercase tracking-wide text-slate-400">{edit.isError ? t('editContinue.editedError') : t('editContinue.edited')}</div>
          <pre data-testid="edit-edited" className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-emerald-50 p-1.5 font-mono text-emerald-900 [overflow-wrap:anywhere]">
            {edit.edited}
          </pre>
        </div>
      </div>
    </div>
  )
}

/** A card's mark that the user edited it, with what was there before (the conversation view). */
export function EditedNote({ original }: { original: string }) {
  const { t } = useTranslation()
  return (
    <details data-testid="card-edited" className="mt-1 rounded border border-fuchsia-200 bg-fuchsia-50 px-1.5 py-0.5 text-fuchsia-900" onClick={(e) => e.stopPropagation()}>
      <summary className="cursor-pointer font-semibold">{t('editContinue.cardEdited')}</summary>
      <pre className="mt-0.5 max-h-40 overflow-auto whitespace-pre-wrap font-mono text-red-900 line-through decoration-red-300 [overflow-wrap:anywhere]">{original}</pre>
    </details>
  )
}
