import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { writeSession } from '../core/files'
import { writeWorkspace } from '../core/files'
import { protocols } from '../core/protocols'
import { examples } from '../examples/index'
import { usePlayground, useRun, useWorkspace } from './playground-context'
import type { ExportTarget } from '../store/export-controller'
import type { ImportOutcome } from '../store/import-controller'
import { download } from './download'
import { pushToast } from './toasts'
import { NumberField } from './NumberField'
import { openHelp, runWithTypeWarning } from './shortcuts'
import { chooseExample } from './example-switch'
import { LanguageSelect } from './i18n/LanguageSelect'
import { TeachControls } from './teach/TeachControls'

const button =
  'inline-flex items-center gap-1 rounded-md border px-2.5 py-1 text-sm font-medium shadow-sm transition disabled:cursor-not-allowed disabled:opacity-40'
const plain = `${button} border-slate-300 bg-white text-slate-800 hover:bg-slate-50`
const quiet = `${button} border-slate-600 bg-slate-800 text-slate-100 hover:bg-slate-700`
const primary = `${button} border-sky-700 bg-sky-600 text-white hover:bg-sky-700`

/** Max steps, 1–100. */
function MaxStepsInput({ value }: { value: number }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  return (
    <label className="flex items-center gap-1 text-xs text-slate-300" title={t('toolbar.maxStepsHint')}>
      <span>{t('toolbar.maxSteps')}</span>
      <NumberField
        testId="max-steps"
        label={t('toolbar.maxSteps')}
        value={value}
        min={1}
        max={100}
        onChange={(maxSteps) => pg.stores.workspace.getState().setSettings({ maxSteps })}
        className="w-14 rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white"
      />
    </label>
  )
}

/** Top bar: example and protocol pickers, the step controls, import and export. */
export function Toolbar({ onImported }: { onImported(outcome: ImportOutcome): void }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  const exampleId = useWorkspace((s) => s.exampleId)
  const protocol = useWorkspace((s) => s.settings.protocol)
  const maxSteps = useWorkspace((s) => s.settings.maxSteps)
  const status = useRun((s) => s.status)
  const cursor = useRun((s) => s.cursor)
  const count = useRun((s) => s.events.length)
  const recorded = useRun((s) => s.mode === 'live' && s.status !== 'running' && s.events.some((e) => e.type === 'model.responded'))
  const fileInput = useRef<HTMLInputElement>(null)
  const [exportOpen, setExportOpen] = useState(false)
  const exportMenu = useRef<HTMLDetailsElement>(null)

  useEffect(() => {
    if (!exportOpen) return
    const close = (event: Event) => {
      if (!exportMenu.current?.contains(event.target as Node)) setExportOpen(false)
    }
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setExportOpen(false)
    }
    document.addEventListener('pointerdown', close)
    document.addEventListener('keydown', escape)
    return () => {
      document.removeEventListener('pointerdown', close)
      document.removeEventListener('keydown', escape)
    }
  }, [exportOpen])
  const busy = status === 'loading' || status === 'running'

  function exportSession() {
    const { events, workspace } = pg.stores.run.getState()
    download(`toolstep-session-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`, writeSession(workspace, events))
  }

  /** Saves an exported `.ts` file, or says why there is none. */
  function exportCode(pending: ReturnType<typeof pg.exportCode>) {
    setExportOpen(false)
    void pending.then((outcome) => {
      if (!outcome.ok) {
        pushToast('error', t('codeExport.failed', { error: outcome.error }))
        return
      }
      download(outcome.file.fileName, outcome.file.text, 'text/typescript')
      pushToast('notice', t('codeExport.saved', { file: outcome.file.fileName }))
    })
  }

  function exportTo(target: ExportTarget) {
    const file = pg.exportOpenSession(target)
    if (file) download(file.fileName, file.text)
    setExportOpen(false)
  }

  return (
    <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-900 px-3 py-2 text-white">
      <div className="mr-2 flex items-baseline gap-2">
        <span className="text-lg font-bold tracking-tight">Toolstep</span>
        <span className="hidden text-xs text-slate-400 min-[1800px]:inline">decide → parse → validate → execute → backfill</span>
      </div>
      <label className="flex items-center gap-1 text-xs text-slate-300">
        <span>{t('toolbar.example')}</span>
        <select
          data-testid="example-select"
          aria-label={t('toolbar.example')}
          value={exampleId}
          onChange={(e) => chooseExample(pg, e.target.value)}
          title={examples.find((ex) => ex.id === exampleId)?.title ?? t('toolbar.yourWorkspace')}
          className="max-w-[15rem] rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white 2xl:max-w-none"
        >
          {exampleId === 'custom' && <option value="custom">({t('toolbar.yourWorkspaceLower')})</option>}
          {examples.map((ex) => (
            <option key={ex.id} value={ex.id}>
              {ex.title}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1 text-xs text-slate-300">
        <span>{t('toolbar.wireFormat')}</span>
        <select
          data-testid="protocol-select"
          aria-label={t('toolbar.wireFormat')}
          value={protocol}
          onChange={(e) => pg.stores.workspace.getState().setSettings({ protocol: e.target.value })}
          title={protocols.find((p) => p.id === protocol)?.label}
          className="max-w-[13rem] rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white 2xl:max-w-none"
        >
          {protocols.map((p) => (
            <option key={p.id} value={p.id} title={p.description}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <MaxStepsInput value={maxSteps} />
      <div className="mx-1 h-6 w-px bg-slate-700" />
      <button data-testid="run" className={primary} disabled={busy} onClick={() => runWithTypeWarning(pg)} title={t('toolbar.runHint')}>
        ▶ {t('toolbar.run')}
      </button>
      {status === 'running' && (
        <button data-testid="run-stop" className={plain} onClick={pg.stop} title={t('toolbar.stopHint')}>
          ■ {t('toolbar.stop')}
        </button>
      )}
      <button data-testid="step" className={plain} disabled={busy || (status === 'stopped' && cursor >= count - 1)} onClick={() => void pg.step()} title={status === 'stopped' && cursor >= count - 1 ? t('toolbar.stepEnded') : t('toolbar.stepHint')}>
        {t('toolbar.step')} ›
      </button>
      <button data-testid="step-back" className={plain} disabled={busy || cursor <= 0} onClick={pg.back} title={t('toolbar.backHint')}>
        ‹ {t('toolbar.back')}
      </button>
      <button data-testid="reset" className={plain} disabled={count === 0 && status === 'idle'} onClick={pg.reset} title={t('toolbar.resetHint')}>
        ⟲ {t('toolbar.reset')}
      </button>
      <div className="ml-auto flex items-center gap-1.5">
        <TeachControls />
        <LanguageSelect />
        <input
          ref={fileInput}
          data-testid="import-file"
          type="file"
          accept=".json,.jsonl,.ndjson,.sse,.txt,application/json,text/event-stream,text/plain"
          multiple
          className="hidden"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])]
            e.target.value = ''
            if (files.length > 0) void pg.importFiles(files).then(onImported)
          }}
        />
        <button data-testid="open-shortcuts" className={quiet} onClick={openHelp} title={t('toolbar.shortcutsHint')} aria-label={t('toolbar.shortcuts')}>
          ?
        </button>
        <button className={quiet} onClick={() => fileInput.current?.click()} title={t('toolbar.importHint')}>
          {t('toolbar.import')}
        </button>
        <details ref={exportMenu} className="relative" onToggle={(e) => setExportOpen((e.currentTarget as HTMLDetailsElement).open)} open={exportOpen}>
          <summary data-testid="export-menu" className={`${quiet} cursor-pointer list-none`}>
            {t('toolbar.export')} ▾
          </summary>
          <div className="absolute right-0 z-30 mt-1 flex w-80 flex-col rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-800 shadow-lg">
            <button
              data-testid="export-workspace"
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100"
              onClick={() => {
                download('toolstep-workspace.json', writeWorkspace(pg.currentWorkspace()))
                setExportOpen(false)
              }}
            >
              {t('toolbar.exportWorkspace')} <span className="text-xs text-slate-500">— {t('toolbar.exportWorkspaceHint')}</span>
            </button>
            <button
              data-testid="export-session"
              disabled={count === 0}
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
              onClick={() => {
                exportSession()
                setExportOpen(false)
              }}
            >
              {t('toolbar.exportSession')} <span className="text-xs text-slate-500">— {t('toolbar.exportSessionHint')}</span>
            </button>
            <div className="my-1 border-t border-slate-100" />
            <button
              data-testid="export-openai"
              disabled={count === 0}
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
              onClick={() => exportTo('openai')}
            >
              {t('toolbar.exportOpenai')} <span className="text-xs text-slate-500">— {t('toolbar.exportOpenaiHint')}</span>
            </button>
            <button
              data-testid="export-anthropic"
              disabled={count === 0}
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
              onClick={() => exportTo('anthropic')}
            >
              {t('toolbar.exportAnthropic')} <span className="text-xs text-slate-500">— {t('toolbar.exportAnthropicHint')}</span>
            </button>
            <button
              data-testid="export-ollama"
              disabled={count === 0}
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
              onClick={() => exportTo('ollama')}
            >
              {t('exportOllama.label')} <span className="text-xs text-slate-500">— {t('exportOllama.hint')}</span>
            </button>
            <div className="my-1 border-t border-slate-100" />
            <button data-testid="export-code" className="rounded px-2 py-1.5 text-left hover:bg-slate-100" onClick={() => exportCode(pg.exportCode())}>
              {t('codeExport.code')} <span className="text-xs text-slate-500">— {t('codeExport.codeHint')}</span>
            </button>
            <button
              data-testid="export-test"
              disabled={!recorded}
              className="rounded px-2 py-1.5 text-left hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
              onClick={() => exportCode(pg.exportTest())}
            >
              {t('codeExport.test')} <span className="text-xs text-slate-500">— {t('codeExport.testHint')}</span>
            </button>
          </div>
        </details>
      </div>
    </header>
  )
}
