import { useEffect, useMemo, useRef, useState } from 'react'
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
import { exampleDescription, exampleTitle, protocolDescription, protocolLabel } from './i18n/core-text'
import { corePhrase, translate } from './i18n/text'
import { PresenterMenuItems, RestoreWorkMenuItem, TeachControls } from './teach/TeachControls'
import { MoreMenu, closeMoreMenu, menuItem } from './layout/MoreMenu'
import { toolbarFit } from './layout/toolbar-fit'
import { useRemWidth } from './layout/use-rem-width'
import { ExportIcon } from './layout/icons'

const button =
  'inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md border px-2.5 py-1 text-sm font-medium shadow-sm transition disabled:cursor-not-allowed disabled:opacity-40'
const plain = `${button} border-slate-300 bg-white text-slate-800 hover:bg-slate-50`
const quiet = `${button} border-slate-600 bg-slate-800 text-slate-100 hover:bg-slate-700`
const primary = `${button} border-sky-700 bg-sky-600 text-white hover:bg-sky-700`

/** Max steps, 1–100: in the toolbar's row when it is wide enough, else in More (`inMenu`). */
function MaxStepsInput({ value, inMenu = false }: { value: number; inMenu?: boolean }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  return (
    <label className={`flex shrink-0 items-center gap-1 whitespace-nowrap ${inMenu ? 'justify-between text-sm text-slate-800' : 'text-xs text-slate-300'}`} title={t('toolbar.maxStepsHint')}>
      <span>{t('toolbar.maxSteps')}</span>
      <NumberField
        testId="max-steps"
        label={t('toolbar.maxSteps')}
        value={value}
        min={1}
        max={100}
        {...(inMenu ? { errorAlign: 'right' as const } : {})}
        onChange={(maxSteps) => pg.stores.workspace.getState().setSettings({ maxSteps })}
        className={`w-14 rounded border px-1.5 py-1 text-sm ${inMenu ? 'border-slate-300 bg-white text-slate-800' : 'border-slate-600 bg-slate-800 text-white'}`}
      />
    </label>
  )
}

/** Top bar, one row: example and protocol pickers, the step controls, the teaching controls and language, More (import, shortcuts…) and export. */
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
  // The pickers' options (two texts each, some 60 translations) change only with the language,
  // while the toolbar draws again at every phase of a run (it shows the event count).
  const exampleOptions = useMemo(
    () =>
      examples.map((ex) => (
        <option key={ex.id} value={ex.id} title={exampleDescription(t, ex)}>
          {exampleTitle(t, ex)}
        </option>
      )),
    [t],
  )
  const protocolOptions = useMemo(
    () =>
      protocols.map((p) => (
        <option key={p.id} value={p.id} title={protocolDescription(t, p)}>
          {protocolLabel(t, p)}
        </option>
      )),
    [t],
  )
  // Widths in rem, so a larger text size compacts the row as a narrower window does.
  const header = useRef<HTMLElement>(null)
  const room = useRemWidth(header, 90)
  const { labelled, wide, named, trail, compact, oneRow } = toolbarFit(room)
  function exportSession() {
    const { events, workspace } = pg.stores.run.getState()
    download(`toolstep-session-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`, writeSession(workspace, events))
  }

  /** Saves an exported `.ts` file, or says why there is none. */
  function exportCode(pending: ReturnType<typeof pg.exportCode>) {
    setExportOpen(false)
    void pending.then((outcome) => {
      if (!outcome.ok) {
        pushToast('error', t('codeExport.failed', { error: translate(t, corePhrase('store', outcome.phrase)) }))
        return
      }
      download(outcome.file.fileName, outcome.file.text, 'text/typescript')
      pushToast('notice', t('codeExport.saved', { file: outcome.file.fileName }))
    })
  }

  function exportTo(target: ExportTarget) {
    const file = pg.exportOpenSession(target)
    if (file) download(file.fileName, file.text)
    // The file is not the log as it was (ids renamed): say so until dismissed.
    if (file?.warning) pushToast('warning', corePhrase('trace', file.warning))
    setExportOpen(false)
  }

  return (
    // One row at any width from 832 CSS px (1280 px at 150 % zoom): the pickers give up width
    // first (their full text shows on hover), the teaching buttons become icons, and the
    // less-used controls sit in More. See toolbarFit for the steps.
    <header ref={header} data-testid="toolbar" className={`flex ${oneRow ? 'flex-nowrap' : 'flex-wrap'} items-center ${compact ? 'gap-1.5 px-2' : 'gap-2 px-3'} border-b border-slate-200 bg-slate-900 py-2 text-white`}>
      <div className={`mr-1 flex shrink-0 items-baseline gap-2 ${named ? '' : 'hidden'}`}>
        <span className="text-lg font-bold tracking-tight">Toolstep</span>
        <span className={`text-xs text-slate-400 ${trail ? '' : 'hidden'}`}>{(['decide', 'parse', 'validate', 'execute', 'backfill'] as const).map((phase) => t(`diagram.phase.${phase}`)).join(' → ')}</span>
      </div>
      <label className="flex min-w-0 shrink items-center gap-1 text-xs text-slate-300">
        {/* Compact: the pickers' labels give their room to the choice (the select keeps its aria-label). */}
        <span className={`shrink-0 whitespace-nowrap ${compact ? 'hidden' : ''}`}>{t('toolbar.example')}</span>
        <select
          data-testid="example-select"
          aria-label={t('toolbar.example')}
          value={exampleId}
          onChange={(e) => chooseExample(pg, e.target.value)}
          title={((ex) => (ex ? `${exampleTitle(t, ex)}: ${exampleDescription(t, ex)}` : t('toolbar.yourWorkspace')))(examples.find((ex) => ex.id === exampleId))}
          className="w-60 min-w-24 shrink rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white 2xl:w-auto"
        >
          {exampleId === 'custom' && <option value="custom">({t('toolbar.yourWorkspaceLower')})</option>}
          {exampleOptions}
        </select>
      </label>
      <label className="flex min-w-0 shrink items-center gap-1 text-xs text-slate-300">
        <span className={`shrink-0 whitespace-nowrap ${compact ? 'hidden' : ''}`}>{t('toolbar.wireFormat')}</span>
        <select
          data-testid="protocol-select"
          aria-label={t('toolbar.wireFormat')}
          value={protocol}
          onChange={(e) => pg.stores.workspace.getState().setSettings({ protocol: e.target.value })}
          title={((p) => (p ? `${protocolLabel(t, p)}: ${protocolDescription(t, p)}` : undefined))(protocols.find((p) => p.id === protocol))}
          className="w-52 min-w-24 shrink rounded border border-slate-600 bg-slate-800 px-1.5 py-1 text-sm text-white 2xl:w-auto"
        >
          {protocolOptions}
        </select>
      </label>
      {wide && <MaxStepsInput value={maxSteps} />}
      <div className={`mx-1 h-6 w-px shrink-0 bg-slate-700 ${compact ? 'hidden' : ''}`} />
      <div className="flex shrink-0 items-center gap-1.5">
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
        {/* Compact: Back and Reset show their symbol only, named for screen readers and on hover. */}
        <button data-testid="step-back" className={plain} disabled={busy || cursor <= 0} onClick={pg.back} title={t('toolbar.backHint')} aria-label={t('toolbar.back')}>
          ‹ {!compact && t('toolbar.back')}
        </button>
        <button data-testid="reset" className={plain} disabled={count === 0 && status === 'idle'} onClick={pg.reset} title={t('toolbar.resetHint')} aria-label={t('toolbar.reset')}>
          ⟲ {!compact && t('toolbar.reset')}
        </button>
      </div>
      <div className={`ml-auto flex shrink-0 items-center ${compact ? 'gap-1' : 'gap-1.5'}`}>
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
        {/* The teaching controls and the language switch are in the row at every width: a workshop starts with them. */}
        <TeachControls labelled={labelled} compact={compact} />
        <LanguageSelect className="shrink-0 rounded border border-slate-600 bg-slate-800 px-0.5 py-1 text-sm text-white" />
        <MoreMenu short={compact}>
          <button
            data-testid="import-button"
            className={menuItem}
            onClick={() => {
              closeMoreMenu()
              fileInput.current?.click()
            }}
            title={t('toolbar.importHint')}
          >
            {t('toolbar.import')}
          </button>
          <PresenterMenuItems />
          <RestoreWorkMenuItem />
          {/* Not last: a refused value's message shows under the field, over the row below. */}
          {!wide && (
            <div className="px-2 py-1.5">
              <MaxStepsInput value={maxSteps} inMenu />
            </div>
          )}
          <button
            data-testid="open-shortcuts"
            className={menuItem}
            onClick={() => {
              closeMoreMenu()
              openHelp()
            }}
            title={t('toolbar.shortcutsHint')}
          >
            {t('toolbar.shortcuts')} <kbd className="rounded border border-slate-300 px-1 font-mono text-xs text-slate-500">?</kbd>
          </button>
        </MoreMenu>
        <details ref={exportMenu} className="relative" onToggle={(e) => setExportOpen((e.currentTarget as HTMLDetailsElement).open)} open={exportOpen}>
          {/* Compact: an icon, named by aria-label and on hover, so the pickers keep room for their text. */}
          <summary data-testid="export-menu" aria-label={t('toolbar.export')} className={`${quiet} cursor-pointer list-none`} title={t('toolbar.export')}>
            {compact ? <ExportIcon /> : `${t('toolbar.export')} ▾`}
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
