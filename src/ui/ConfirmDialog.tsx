import { useTranslation } from 'react-i18next'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useConfirm, usePlayground } from './playground-context'
import type { Decision } from '../core/loop'
import type { JsonValue } from '../core/messages'
import { errorMessage } from '../core/util'
import { ArgumentsBlock } from './inspector/ArgumentsText'

type Choice = { decision: 'approve' } | { decision: 'deny'; reason: string } | { decision: 'edit'; text: string; error: string | null }

/**
 * Modal shown when the loop reaches `confirm`: each call to a dangerous tool is approved,
 * denied (with an optional reason the model is told), or approved with edited arguments. Every
 * call gets a decision, so every call gets a result.
 */
export function ConfirmDialog() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const pending = useConfirm((s) => s.pending)
  const [choices, setChoices] = useState<Record<string, Choice>>({})
  const dialog = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!pending) return
    setChoices(Object.fromEntries(pending.calls.map((c) => [c.call.id, { decision: 'approve' } as Choice])))
    // The dialog itself takes focus, not Continue: a key pressed to step (Space in presenter mode,
    // Enter) must not approve a dangerous call. Tab reaches the choices and the buttons.
    dialog.current?.focus()
  }, [pending])

  if (!pending) return null

  function submit() {
    if (!pending) return
    const decisions: Decision[] = []
    for (const c of pending.calls) {
      const choice = choices[c.call.id] ?? { decision: 'approve' }
      if (choice.decision === 'approve') {
        decisions.push({ callId: c.call.id, decision: 'approve' })
        continue
      }
      if (choice.decision === 'deny') {
        const reason = choice.reason.trim()
        decisions.push({ callId: c.call.id, decision: 'deny', ...(reason === '' ? {} : { reason }) })
        continue
      }
      try {
        const parsed = JSON.parse(choice.text) as unknown
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(t('confirm.notObject'))
        decisions.push({ callId: c.call.id, decision: 'edit', arguments: parsed as Record<string, JsonValue> })
      } catch (error) {
        setChoices((all) => ({ ...all, [c.call.id]: { ...choice, error: errorMessage(error) } }))
        return
      }
    }
    pg.answerConfirm(decisions)
  }

  /** Esc denies; Tab stays inside the dialog (it is modal: the page behind is inert). */
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Escape') {
      all('deny')
      return
    }
    if (e.key !== 'Tab' || !dialog.current) return
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button, textarea, input[type="text"], input:checked, input[type="radio"]:not([name]), [tabindex]:not([tabindex="-1"])')]
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (!first || !last) return
    if (document.activeElement === dialog.current) {
      // From the dialog itself (focused when it opens), Tab goes to its first control, Shift+Tab to its last.
      e.preventDefault()
      ;(e.shiftKey ? last : first).focus()
    } else if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  const all = (decision: 'approve' | 'deny') => pg.answerConfirm(pending.calls.map((c) => ({ callId: c.call.id, decision })))

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4">
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby="confirm-title" data-testid="confirm-dialog" tabIndex={-1} className="w-full max-w-xl rounded-lg bg-white p-4 shadow-2xl outline-none" onKeyDown={onKeyDown}>
        <h2 id="confirm-title" className="text-lg font-semibold text-slate-900">
          {pending.calls.length === 1 ? t('confirm.titleOne') : t('confirm.titleMany', { count: pending.calls.length })}
        </h2>
        <p className="mb-3 text-sm text-slate-600">{t('confirm.explainBefore')} <code>dangerous: true</code>{t('confirm.explainAfter')}</p>
        <ul className="flex max-h-[60vh] flex-col gap-3 overflow-auto">
          {pending.calls.map((c) => {
            const choice = choices[c.call.id] ?? { decision: 'approve' }
            return (
              <li key={c.call.id} data-testid="confirm-call" data-tool-name={c.call.name} className="rounded border border-orange-200 bg-orange-50 p-2">
                <div className="flex items-center justify-between gap-2">
                  <span className="font-mono text-sm font-semibold">{c.call.name}</span>
                  <span className="font-mono text-xs text-slate-500">{c.call.id}</span>
                </div>
                <ArgumentsBlock args={c.call.arguments} className="mt-1 whitespace-pre-wrap font-mono text-xs text-slate-700 [overflow-wrap:anywhere]" />
                <div role="radiogroup" aria-label={t('confirm.decisionFor', { name: c.call.name })} className="mt-2 flex gap-3 text-sm">
                  {(['approve', 'deny', 'edit'] as const).map((d) => (
                    <label key={d} className="flex items-center gap-1">
                      <input
                        type="radio"
                        name={`decision-${c.call.id}`}
                        data-testid={`confirm-${d}`}
                        checked={choice.decision === d}
                        onChange={() =>
                          setChoices((all) => ({
                            ...all,
                            [c.call.id]: d === 'edit' ? { decision: 'edit', text: JSON.stringify(c.call.arguments, null, 2), error: null } : d === 'deny' ? { decision: 'deny', reason: '' } : { decision: d },
                          }))
                        }
                      />
                      {t(`confirm.${d}`)}
                    </label>
                  ))}
                </div>
                {choice.decision === 'deny' && (
                  <input
                    type="text"
                    data-testid="confirm-deny-reason"
                    aria-label={t('denyReason.label', { name: c.call.name })}
                    placeholder={t('denyReason.placeholder')}
                    value={choice.reason}
                    onChange={(e) => setChoices((all) => ({ ...all, [c.call.id]: { decision: 'deny', reason: e.target.value } }))}
                    className="mt-1 w-full rounded border border-slate-300 p-1 text-sm"
                  />
                )}
                {choice.decision === 'edit' && (
                  <>
                    <textarea
                      data-testid="confirm-arguments"
                      aria-label={t('confirm.argumentsFor', { name: c.call.name })}
                      value={choice.text}
                      rows={5}
                      onChange={(e) => setChoices((all) => ({ ...all, [c.call.id]: { decision: 'edit', text: e.target.value, error: null } }))}
                      className="mt-1 w-full rounded border border-slate-300 p-1 font-mono text-xs"
                    />
                    {choice.error && <p role="alert" className="text-xs text-red-700">{choice.error}</p>}
                  </>
                )}
              </li>
            )
          })}
        </ul>
        <div className="mt-4 flex justify-end gap-2">
          <button className="rounded-md border border-slate-300 px-3 py-1.5 text-sm" onClick={() => all('deny')}>
            {t('confirm.denyAll')}
          </button>
          <button data-testid="confirm-submit" className="rounded-md bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-700" onClick={submit}>
            {t('confirm.continue')}
          </button>
        </div>
      </div>
    </div>
  )
}
