import { useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { BREAK_EVENTS, BREAK_PHASES, compileCondition, describeBreakpoint, type Breakpoint, type BreakpointTrigger } from '../../core/debug'
import { usePlayground, useRun, useWorkspace } from '../playground-context'
import { argumentsJson, InlineArguments } from '../inspector/ArgumentsText'
import { WINDOWED_CHARS } from '../inspector/raw-pieces'

const input = 'rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-900'

/** Triggers as one select value: `before:execute`, `event:tool.finished`, `anomaly`, `turn`, `any`. */
function triggerKey(on: BreakpointTrigger): string {
  switch (on.kind) {
    case 'before':
    case 'after':
      return `${on.kind}:${on.phase}`
    case 'event':
      return `event:${on.type}`
    default:
      return on.kind
  }
}

function triggerOf(key: string, turn: number): BreakpointTrigger {
  const [kind, rest] = key.split(':') as [string, string | undefined]
  if (kind === 'before' || kind === 'after') return { kind, phase: rest as (typeof BREAK_PHASES)[number] }
  if (kind === 'event') return { kind, type: rest as (typeof BREAK_EVENTS)[number] }
  if (kind === 'turn') return { kind, turn }
  if (kind === 'anomaly') return { kind }
  return { kind: 'any' }
}

function newId(existing: readonly Breakpoint[]): string {
  let n = existing.length + 1
  while (existing.some((b) => b.id === `b${n}`)) n++
  return `b${n}`
}

/** One breakpoint: where it is checked, its condition (with the parse error under it), on/off, delete. */
function BreakpointRow({ breakpoint, onChange, onDelete }: { breakpoint: Breakpoint; onChange(next: Breakpoint): void; onDelete(): void }) {
  const { t } = useTranslation()
  const compiled = compileCondition(breakpoint.condition)
  const turn = breakpoint.on.kind === 'turn' ? breakpoint.on.turn : 1
  return (
    <li data-testid="breakpoint-item" data-enabled={String(breakpoint.enabled)} data-id={breakpoint.id} className="flex flex-col gap-0.5 py-1">
      <div className="flex flex-wrap items-center gap-1.5">
        <input type="checkbox" aria-label={t('breakpoints.enable', { id: breakpoint.id })} data-testid="breakpoint-enabled" checked={breakpoint.enabled} onChange={(e) => onChange({ ...breakpoint, enabled: e.target.checked })} />
        <span className="inline-block h-2.5 w-2.5 rounded-full bg-red-600" aria-hidden style={{ opacity: breakpoint.enabled ? 1 : 0.3 }} />
        <select aria-label={t('breakpoints.where')} data-testid="breakpoint-trigger" className={input} value={triggerKey(breakpoint.on)} onChange={(e) => onChange({ ...breakpoint, on: triggerOf(e.target.value, turn) })}>
          <optgroup label={t('breakpoints.beforeGroup')}>
            {BREAK_PHASES.map((p) => (
              <option key={`b${p}`} value={`before:${p}`}>
                {t('breakpoints.before', { phase: t(`diagram.phase.${p}`) })}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('breakpoints.afterGroup')}>
            {BREAK_PHASES.map((p) => (
              <option key={`a${p}`} value={`after:${p}`}>
                {t('breakpoints.after', { phase: t(`diagram.phase.${p}`) })}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('breakpoints.eventGroup')}>
            {BREAK_EVENTS.map((type) => (
              <option key={type} value={`event:${type}`}>
                {t('breakpoints.onEvent', { type })}
              </option>
            ))}
          </optgroup>
          <option value="anomaly">{t('breakpoints.onAnomaly')}</option>
          <option value="turn">{t('breakpoints.atTurn')}</option>
          <option value="any">{t('breakpoints.afterEvery')}</option>
        </select>
        {breakpoint.on.kind === 'turn' && (
          <input
            type="number"
            min={1}
            aria-label={t('breakpoints.turn')}
            data-testid="breakpoint-turn"
            className={`${input} w-14`}
            value={turn}
            onChange={(e) => onChange({ ...breakpoint, on: { kind: 'turn', turn: Math.max(1, Math.floor(Number(e.target.value) || 1)) } })}
          />
        )}
        <span className="text-xs text-slate-500">{t('breakpoints.when')}</span>
        <input
          data-testid="breakpoint-condition"
          aria-label={t('breakpoints.condition')}
          aria-invalid={!compiled.ok}
          spellCheck={false}
          placeholder={t('breakpoints.conditionPlaceholder')}
          className={`${input} min-w-0 flex-1 font-mono ${compiled.ok ? '' : 'border-red-400'}`}
          value={breakpoint.condition}
          onChange={(e) => onChange({ ...breakpoint, condition: e.target.value })}
        />
        <button aria-label={t('breakpoints.delete', { id: breakpoint.id })} data-testid="breakpoint-delete" className="px-1 text-slate-400 hover:text-red-700" onClick={onDelete}>
          ✕
        </button>
      </div>
      {!compiled.ok && (
        <p role="alert" data-testid="breakpoint-error" lang="en" className="pl-8 text-[11px] text-red-700">
          {compiled.error}
        </p>
      )}
    </li>
  )
}

/**
 * The breakpoints of the workspace (saved with it): Run pauses at the first enabled one that
 * hits, live or in a replay, and says which and why; Run again continues.
 */
export function BreakpointsPanel() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const breakpoints = useWorkspace((s) => s.settings.breakpoints) ?? []
  const hit = useRun((s) => s.breakHit)
  const [open, setOpen] = useState(false)
  const save = (next: Breakpoint[]) => pg.stores.workspace.getState().setSettings({ breakpoints: next })
  const active = breakpoints.filter((b) => b.enabled).length
  const longArguments = hit?.call ? argumentsJson(hit.call.arguments, false).length > WINDOWED_CHARS : false
  return (
    <div className="border-b border-slate-200 bg-white px-3 py-1 text-sm">
      {hit && (
        <div role="status" data-testid="breakpoint-hit" data-breakpoint-id={hit.breakpoint.id} className="mb-1 flex flex-wrap items-center gap-2 rounded bg-red-50 px-2 py-1 text-red-900">
          <span className="inline-block h-2.5 w-2.5 rounded-full bg-red-600" aria-hidden />
          <span>
            <Trans i18nKey="breakpoints.paused" values={{ id: hit.breakpoint.id, label: hit.label, where: hit.where }} components={{ id: <strong />, code: <span className="font-mono" /> }} />
            {hit.call && !longArguments ? <span className="font-mono">{` (${hit.call.name} ${argumentsJson(hit.call.arguments, false)})`}</span> : ''} {t('breakpoints.runContinues')}
          </span>
          {hit.call && longArguments && (
            // Megabytes of arguments on the status line made one giant line to lay out: they are windowed below it.
            <div className="w-full font-mono text-xs">
              {hit.call.name}
              <InlineArguments args={hit.call.arguments} />
            </div>
          )}
        </div>
      )}
      <div className="flex items-center gap-2">
        <button className="text-xs text-slate-600 hover:text-slate-900" aria-expanded={open} data-testid="breakpoints-toggle" onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'} {t('breakpoints.title')}{breakpoints.length > 0 ? ` ${t('breakpoints.count', { active, total: breakpoints.length })}` : ''}
        </button>
        <button
          data-testid="breakpoint-add"
          className="rounded border border-slate-300 px-1.5 text-xs text-slate-700 hover:bg-slate-100"
          onClick={() => {
            setOpen(true)
            save([...breakpoints, { id: newId(breakpoints), enabled: true, on: { kind: 'before', phase: 'execute' }, condition: '' }])
          }}
        >
          + {t('breakpoints.add')}
        </button>
        {!open && breakpoints.length > 0 && <span className="truncate font-mono text-xs text-slate-500" title={t('breakpoints.specHint')}>{breakpoints.map((b) => describeBreakpoint(b)).join(' · ')}</span>}
      </div>
      {open && (
        <ul aria-label={t('breakpoints.title')} className="divide-y divide-slate-100">
          {breakpoints.map((b, i) => (
            <BreakpointRow key={b.id} breakpoint={b} onChange={(next) => save(breakpoints.map((x, j) => (j === i ? next : x)))} onDelete={() => save(breakpoints.filter((_, j) => j !== i))} />
          ))}
        </ul>
      )}
    </div>
  )
}
