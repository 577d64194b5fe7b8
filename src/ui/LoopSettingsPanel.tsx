import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useCodeCheck, usePlayground, useWorkspace } from './playground-context'
import { getProtocol } from '../core/protocols'
import { DEFAULT_LOOP_SETTINGS, type Fault, type LoopSettings } from '../core/loop'
import { NumberField } from './NumberField'

const input = 'rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-900'

function Row({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="flex items-center justify-between gap-2 py-0.5" title={hint}>
      <span className="text-slate-700">{label}</span>
      {children}
    </label>
  )
}

function NumberInput({ id, value, min, max, onChange }: { id: string; value: number; min: number; max: number; onChange(n: number): void }) {
  return <NumberField testId={`setting-${id}`} value={value} min={min} max={max} onChange={onChange} className={`${input} w-20`} />
}

function Check({ id, checked, onChange }: { id: string; checked: boolean; onChange(v: boolean): void }) {
  return <input data-testid={`setting-${id}`} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
}

function FallbackInput({ value, onChange }: { value: string[]; onChange(ids: string[]): void }) {
  const { t } = useTranslation()
  const [text, setText] = useState(value.join(', '))
  const ids = text.split(/[\s,→>]+/).filter(Boolean)
  const unknown = ids.filter((id) => !getProtocol(id))
  // Loading an example replaces the setting: show it, unless it is what is being typed.
  useEffect(() => {
    setText((current) => {
      const typed = current.split(/[\s,→>]+/).filter(Boolean)
      return typed.join() === value.join() ? current : value.join(', ')
    })
  }, [value])
  return (
    <span className="flex flex-col items-end">
      <input
        data-testid="setting-fallbackProtocols"
        value={text}
        placeholder={t('settings.eGJsonXml')}
        onChange={(e) => {
          setText(e.target.value)
          const next = e.target.value.split(/[\s,→>]+/).filter(Boolean)
          if (next.every((id) => getProtocol(id))) onChange(next)
        }}
        className={`${input} w-40 ${unknown.length ? 'border-red-400' : ''}`}
      />
      {unknown.length > 0 && <span className="text-[11px] text-red-700">{t('settings.unknownFormats', { ids: unknown.join(', ') })}</span>}
    </span>
  )
}

function Faults({ faults, onChange }: { faults: Fault[]; onChange(f: Fault[]): void }) {
  const { t } = useTranslation()
  const tools = useCodeCheck((s) => s.tools)
  const names = tools.map((t) => t.name)
  const update = (i: number, patch: Partial<Fault>) => onChange(faults.map((f, j) => (j === i ? { ...f, ...patch } : f)))
  return (
    <div className="flex flex-col gap-1">
      {faults.map((f, i) => (
        <div key={i} data-testid="fault-row" className="flex flex-wrap items-center gap-1">
          <select aria-label={t('settings.tool')} value={f.tool} onChange={(e) => update(i, { tool: e.target.value })} className={input}>
            {[...new Set([f.tool, ...names])].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
          <select aria-label={t('settings.fault')} value={f.kind} onChange={(e) => update(i, { kind: e.target.value as Fault['kind'] })} className={input}>
            {(['fail', 'timeout', 'latency', 'huge', 'garbage'] as const).map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
          <input
            aria-label={t('settings.atTurn')}
            type="number"
            min={1}
            placeholder={t('settings.everyTurn')}
            value={f.atStep ?? ''}
            onChange={(e) => {
              const n = Number(e.target.value)
              const { atStep: _drop, ...rest } = f
              onChange(faults.map((g, j) => (j === i ? (e.target.value === '' || !Number.isInteger(n) || n < 1 ? rest : { ...rest, atStep: n }) : g)))
            }}
            className={`${input} w-24`}
          />
          <button aria-label={t('settings.removeFault')} className="px-1 text-slate-500 hover:text-red-700" onClick={() => onChange(faults.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      <button
        data-testid="add-fault"
        disabled={names.length === 0}
        className="self-start rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 disabled:opacity-40"
        onClick={() => onChange([...faults, { tool: names[0] ?? '', kind: 'fail' }])}
      >
        {t('settings.addFault')}
      </button>
    </div>
  )
}

/** Every loop behaviour as a control; changes apply to the next run and are saved with the workspace. */
export function LoopSettingsPanel() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const loop = useWorkspace((s) => s.settings.loop)
  const set = (patch: Partial<LoopSettings>) => pg.stores.workspace.getState().setLoop(patch)
  const changed = (Object.keys(DEFAULT_LOOP_SETTINGS) as (keyof LoopSettings)[]).filter((k) => JSON.stringify(loop[k]) !== JSON.stringify(DEFAULT_LOOP_SETTINGS[k])).length
  return (
    <details data-testid="loop-settings" className="border-b border-slate-200 px-3 py-1.5 text-xs">
      <summary className="cursor-pointer font-semibold uppercase tracking-wide text-slate-500">
        {t('settings.title')} <span className="font-normal normal-case text-slate-400">({changed ? t('settings.changed', { count: changed }) : t('settings.defaults')})</span>
      </summary>
      <div className="mt-1 grid grid-cols-1 gap-x-6 gap-y-1 xl:grid-cols-2">
        <fieldset className="flex flex-col">
          <legend className="font-semibold text-slate-600">{t('settings.validation')}</legend>
          <Row label={t('settings.unknownArguments')} hint={t('settings.argumentsTheSchemaDoes')}>
            <select data-testid="setting-unknownArguments" value={loop.validation.unknownArguments} onChange={(e) => set({ validation: { ...loop.validation, unknownArguments: e.target.value as 'drop' | 'reject' } })} className={input}>
              <option value="drop">{t('settings.dropWithAWarning')}</option>
              <option value="reject">{t('settings.rejectTheCall')}</option>
            </select>
          </Row>
          <Row label={t('settings.safeCoercions')} hint={t('settings.33TrueTrue')}>
            <Check id="coerce" checked={loop.validation.coerce} onChange={(coerce) => set({ validation: { ...loop.validation, coerce } })} />
          </Row>
          <Row label={t('settings.fuzzyToolNames')} hint={t('settings.acceptNamesWithin2')}>
            <Check id="fuzzyToolNames" checked={loop.fuzzyToolNames} onChange={(fuzzyToolNames) => set({ fuzzyToolNames })} />
          </Row>
        </fieldset>
        <fieldset className="flex flex-col">
          <legend className="font-semibold text-slate-600">{t('settings.parsing')}</legend>
          <Row label={t('settings.parseRetries')} hint={t('settings.correctionsSentBackAfter')}>
            <NumberInput id="maxParseRetries" value={loop.maxParseRetries} min={0} max={10} onChange={(maxParseRetries) => set({ maxParseRetries })} />
          </Row>
          <Row label={t('settings.then')}>
            <select data-testid="setting-onParseFailure" value={loop.onParseFailure} onChange={(e) => set({ onParseFailure: e.target.value as 'error' | 'final_answer' })} className={input}>
              <option value="error">{t('settings.stopWithError')}</option>
              <option value="final_answer">{t('settings.takeTextAsThe')}</option>
            </select>
          </Row>
          <Row label={t('settings.fallbackFormats')} hint={t('settings.triedInOrderWhen')}>
            <FallbackInput value={loop.fallbackProtocols} onChange={(fallbackProtocols) => set({ fallbackProtocols })} />
          </Row>
          <Row label={t('settings.codeAsAction')} hint={t('settings.theModelAnswersWith')}>
            <Check id="codeAsAction" checked={loop.codeAsAction} onChange={(codeAsAction) => set({ codeAsAction })} />
          </Row>
        </fieldset>
        <fieldset className="flex flex-col">
          <legend className="font-semibold text-slate-600">{t('settings.loopControl')}</legend>
          <Row label={t('settings.repeatedCallLimit')} hint={t('settings.sameToolSameArguments')}>
            <NumberInput id="repeatedCallLimit" value={loop.repeatedCall.limit} min={2} max={50} onChange={(limit) => set({ repeatedCall: { ...loop.repeatedCall, limit } })} />
          </Row>
          <Row label={t('settings.onRepeat')}>
            <select data-testid="setting-repeatedCallAction" value={loop.repeatedCall.action} onChange={(e) => set({ repeatedCall: { ...loop.repeatedCall, action: e.target.value as 'stop' | 'warn' } })} className={input}>
              <option value="stop">{t('settings.stopRepeatedCall')}</option>
              <option value="warn">{t('settings.warnAndContinue')}</option>
            </select>
          </Row>
          <Row label={t('settings.lastTurnWithoutTools')} hint={t('settings.whenMaxStepsIs')}>
            <Check id="finalTurnWithoutTools" checked={loop.finalTurnWithoutTools} onChange={(finalTurnWithoutTools) => set({ finalTurnWithoutTools })} />
          </Row>
          <Row label={t('settings.contextWindow')} hint={t('settings.systemPromptLastN')}>
            <NumberInput id="contextWindow" value={loop.contextWindow} min={0} max={10000} onChange={(contextWindow) => set({ contextWindow })} />
          </Row>
        </fieldset>
        <fieldset className="flex flex-col">
          <legend className="font-semibold text-slate-600">{t('settings.execution')}</legend>
          <Row label={t('settings.severalCalls')}>
            <select data-testid="setting-execution" value={loop.execution} onChange={(e) => set({ execution: e.target.value as 'parallel' | 'sequential' })} className={input}>
              <option value="parallel">{t('settings.inParallel')}</option>
              <option value="sequential">{t('settings.oneAfterAnother')}</option>
            </select>
          </Row>
          <Row label={t('settings.retryOnceOnTimeout')}>
            <Check id="retryOnTimeout" checked={loop.retryOnTimeout} onChange={(retryOnTimeout) => set({ retryOnTimeout })} />
          </Row>
          <Row label={t('settings.maxResultChars')}>
            <NumberInput id="maxResultChars" value={loop.maxResultChars} min={100} max={1_000_000} onChange={(maxResultChars) => set({ maxResultChars })} />
          </Row>
          <Row label={t('settings.longResults')}>
            <select data-testid="setting-resultShaping" value={loop.resultShaping} onChange={(e) => set({ resultShaping: e.target.value as 'truncate' | 'summarize' })} className={input}>
              <option value="truncate">{t('settings.truncateWithAMarker')}</option>
              <option value="summarize">{t('settings.summarizeHook')}</option>
            </select>
          </Row>
          <Row label={t('settings.markResultsUntrusted')} hint={t('settings.wrapResultsAndFlag')}>
            <Check id="untrustedWrapping" checked={loop.untrustedWrapping} onChange={(untrustedWrapping) => set({ untrustedWrapping })} />
          </Row>
        </fieldset>
        <fieldset className="flex flex-col xl:col-span-2">
          <legend className="font-semibold text-slate-600">{t('settings.faultInjection')}</legend>
          <Faults faults={loop.faults} onChange={(faults) => set({ faults })} />
        </fieldset>
      </div>
      {changed > 0 && (
        <button className="mt-1 text-xs text-sky-700 underline" onClick={() => pg.stores.workspace.getState().setSettings({ loop: DEFAULT_LOOP_SETTINGS })}>
          {t('settings.resetDefaults')}
        </button>
      )}
    </details>
  )
}
