import { useState } from 'react'
import { BREAK_EVENTS, BREAK_PHASES, compileCondition, describeBreakpoint, type Breakpoint, type BreakpointTrigger } from '../../core/debug'
import { usePlayground, useRun, useWorkspace } from '../playground-context'

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
  const compiled = compileCondition(breakpoint.condition)
  const turn = breakpoint.on.kind === 'turn' ? breakpoint.on.turn : 1
  return (
    <li data-testid="breakpoint-item" data-enabled={String(breakpoint.enabled)} data-id={breakpoint.id} className="flex flex-col gap-0.5 py-1">
      <div className="flex flex-wrap items-center gap-1.5">
        <input type="checkbox" aria-label={`Enable breakpoint ${breakpoint.id}`} data-testid="breakpoint-enabled" checked={breakpoint.enabled} onChange={(e) => onChange({ ...breakpoint, enabled: e.target.checked })} />
        <span className="inline-block h-2.5 w-2.5 rounded-full bg-red-600" aria-hidden style={{ opacity: breakpoint.enabled ? 1 : 0.3 }} />
        <select aria-label="Where" data-testid="breakpoint-trigger" className={input} value={triggerKey(breakpoint.on)} onChange={(e) => onChange({ ...breakpoint, on: triggerOf(e.target.value, turn) })}>
          <optgroup label="Before a phase">
            {BREAK_PHASES.map((p) => (
              <option key={`b${p}`} value={`before:${p}`}>
                before {p}
              </option>
            ))}
          </optgroup>
          <optgroup label="After a phase">
            {BREAK_PHASES.map((p) => (
              <option key={`a${p}`} value={`after:${p}`}>
                after {p}
              </option>
            ))}
          </optgroup>
          <optgroup label="On an event">
            {BREAK_EVENTS.map((t) => (
              <option key={t} value={`event:${t}`}>
                on {t}
              </option>
            ))}
          </optgroup>
          <option value="anomaly">on any anomaly</option>
          <option value="turn">at turn…</option>
          <option value="any">after every event</option>
        </select>
        {breakpoint.on.kind === 'turn' && (
          <input
            type="number"
            min={1}
            aria-label="Turn"
            data-testid="breakpoint-turn"
            className={`${input} w-14`}
            value={turn}
            onChange={(e) => onChange({ ...breakpoint, on: { kind: 'turn', turn: Math.max(1, Math.floor(Number(e.target.value) || 1)) } })}
          />
        )}
        <span className="text-xs text-slate-500">when</span>
        <input
          data-testid="breakpoint-condition"
          aria-label="Condition"
          aria-invalid={!compiled.ok}
          spellCheck={false}
          placeholder="always, or e.g. call.name == 'charge' && call.arguments.amount > 100"
          className={`${input} min-w-0 flex-1 font-mono ${compiled.ok ? '' : 'border-red-400'}`}
          value={breakpoint.condition}
          onChange={(e) => onChange({ ...breakpoint, condition: e.target.value })}
        />
        <button aria-label={`Delete breakpoint ${breakpoint.id}`} data-testid="breakpoint-delete" className="px-1 text-slate-400 hover:text-red-700" onClick={onDelete}>
          ✕
        </button>
      </div>
      {!compiled.ok && (
        <p role="alert" data-testid="breakpoint-error" className="pl-8 text-[11px] text-red-700">
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
  const pg = usePlayground()
  const breakpoints = useWorkspace((s) => s.settings.breakpoints) ?? []
  const hit = useRun((s) => s.breakHit)
  const [open, setOpen] = useState(false)
  const save = (next: Breakpoint[]) => pg.stores.workspace.getState().setSettings({ breakpoints: next })
  const active = breakpoints.filter((b) => b.enabled).length
  return (
    <div className="border-b border-slate-200 bg-white px-3 py-1 text-sm">
      {hit && (
        <div role="status" data-testid="breakpoint-hit" data-breakpoint-id={hit.breakpoint.id} className="mb-1 flex flex-wrap items-center gap-2 rounded bg-red-50 px-2 py-1 text-red-900">
          <span className="inline-block h-2.5 w-2.5 rounded-full bg-red-600" aria-hidden />
          <span>
            Paused at breakpoint <strong>{hit.breakpoint.id}</strong> “{hit.label}” — {hit.where}
            {hit.call ? ` (call ${hit.call.name} ${JSON.stringify(hit.call.arguments)})` : ''}. Run continues.
          </span>
        </div>
      )}
      <div className="flex items-center gap-2">
        <button className="text-xs text-slate-600 hover:text-slate-900" aria-expanded={open} data-testid="breakpoints-toggle" onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'} Breakpoints{breakpoints.length > 0 ? ` (${active}/${breakpoints.length} on)` : ''}
        </button>
        <button
          data-testid="breakpoint-add"
          className="rounded border border-slate-300 px-1.5 text-xs text-slate-700 hover:bg-slate-100"
          onClick={() => {
            setOpen(true)
            save([...breakpoints, { id: newId(breakpoints), enabled: true, on: { kind: 'before', phase: 'execute' }, condition: '' }])
          }}
        >
          + Add
        </button>
        {!open && breakpoints.length > 0 && <span className="truncate text-xs text-slate-500">{breakpoints.map((b) => describeBreakpoint(b)).join(' · ')}</span>}
      </div>
      {open && (
        <ul aria-label="Breakpoints" className="divide-y divide-slate-100">
          {breakpoints.map((b, i) => (
            <BreakpointRow key={b.id} breakpoint={b} onChange={(next) => save(breakpoints.map((x, j) => (j === i ? next : x)))} onDelete={() => save(breakpoints.filter((_, j) => j !== i))} />
          ))}
        </ul>
      )}
    </div>
  )
}
