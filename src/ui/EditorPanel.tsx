import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Panel, usePanelRef } from 'react-resizable-panels'
import { PaneDivider, PaneGroup } from './layout/Panes'
import { usePrefs } from './prefs'
import { buildSystemPrompt } from '../core/loop'
import type { CodeProblem } from '../store/run-store'
import { useCodeCheck, usePlayground, useRun, useWorkspace } from './playground-context'
import { revealInEditor } from './editors/registry'
import { LoopSettingsPanel } from './LoopSettingsPanel'
import { codeProblemText } from './i18n/code-errors'

const CodeEditor = lazy(() => import('./editors/CodeEditor'))

/**
 * A code problem's message. A translated engine message keeps the English it came as on hover:
 * that title is English, so the element holding it says `lang="en"` and the translation inside
 * says the page's language.
 */
function ProblemMessage({ said }: { said: { text: string; original?: string; lang?: 'en' } }) {
  const { i18n } = useTranslation()
  if (!said.original) return <span lang={said.lang}>{said.text}</span>
  return (
    <span lang="en" title={said.original}>
      <span lang={i18n.language}>{said.text}</span>
    </span>
  )
}

function ProblemBanner({ problem }: { problem: CodeProblem }) {
  const { t } = useTranslation()
  const where = `${problem.file}${problem.line ? `:${problem.line}${problem.column ? `:${problem.column}` : ''}` : ''}`
  const said = codeProblemText(t, problem)
  const message = said.text
  // "tools.ts ran out of memory …" names its file already: no "tools.ts — tools.ts …".
  const named = !problem.line && message.startsWith(`${problem.file} `)
  return (
    <div role="alert" data-testid="code-problem" className="border-b border-red-300 bg-red-50 px-3 py-1.5 text-sm text-red-800">
      <span className="font-semibold">
        {t('editorPanel.cantRun')}{' '}
        {problem.line ? (
          <button
            data-testid="error-link"
            className="font-semibold underline decoration-red-400 underline-offset-2 hover:text-red-950"
            title={t('editorPanel.goToLine')}
            onClick={() => revealInEditor(problem.file, problem.line!, problem.column ?? 1)}
          >
            {where}
          </button>
        ) : named ? null : (
          where
        )}
      </span>
      {named ? null : ' — '}
      <ProblemMessage said={said} />
    </div>
  )
}

/**
 * The problem of `file` while its code is the code that produced it: an edit makes the message
 * stale at once (the next check, a moment later, reports what is wrong now, if anything).
 */
function useCurrentProblem(file: string, value: string): CodeProblem | null {
  const problem = useRun((s) => s.problems.find((p) => p.file === file) ?? null)
  const [seen, setSeen] = useState<{ problem: CodeProblem; value: string } | null>(null)
  if (problem && seen?.problem !== problem) setSeen({ problem, value })
  if (!problem) return null
  return seen !== null && seen.problem === problem && seen.value !== value ? null : problem
}

function FileEditor({ file, testId, value, onChange, extra }: { file: string; testId: string; value: string; onChange(v: string): void; extra?: ReactNode }) {
  const { t } = useTranslation()
  const problem = useCurrentProblem(file, value)
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-1 font-mono text-xs text-slate-600">
        <span>{file}</span>
        {extra}
      </div>
      {problem && <ProblemBanner problem={problem} />}
      <div data-testid={testId} className="min-h-0 flex-1">
        <Suspense fallback={<div className="p-3 text-sm text-slate-500">{t('editorPanel.loadingEditor')}</div>}>
          <CodeEditor path={file} value={value} onChange={onChange} problem={problem} />
        </Suspense>
      </div>
    </div>
  )
}

/** The system prompt the model will receive with the current tools and wire format. */
function SystemPromptPreview() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const protocol = useWorkspace((s) => s.settings.protocol)
  const base = useWorkspace((s) => s.settings.systemPrompt)
  const tools = useCodeCheck((s) => s.tools)
  const checking = useCodeCheck((s) => s.checking)
  const broken = useRun((s) => s.problems.some((p) => p.file === 'tools.ts'))
  const prompt = buildSystemPrompt(protocol, tools, base)
  return (
    <details className="border-b border-slate-200 px-3 py-1.5 text-xs">
      <summary className="cursor-pointer font-semibold uppercase tracking-wide text-slate-500">
        {t('editorPanel.systemPrompt')} <span className="font-normal normal-case text-slate-400">({protocol} · {broken ? t('editorPanel.toolsHaveErrors') : t('editorPanel.toolCount', { count: tools.length })}{checking ? ` · ${t('editorPanel.checking')}` : ''})</span>
      </summary>
      <label className="mt-1 flex flex-col gap-1 text-slate-600">
        {t('editorPanel.yourText')}
        <textarea
          data-testid="system-prompt-input"
          rows={2}
          value={base}
          onChange={(e) => pg.stores.workspace.getState().setSettings({ systemPrompt: e.target.value })}
          className="rounded border border-slate-300 px-2 py-1 font-sans text-sm text-slate-900"
        />
      </label>
      <pre data-testid="system-prompt" className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] text-slate-700">
        {prompt || t('editorPanel.empty')}
      </pre>
    </details>
  )
}

/** tools.ts above model.ts in resizable panes, or both as tabs in one pane. */
function SourceEditors({ tools, model }: { tools: string; model: string }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  const setTools = (v: string) => pg.stores.workspace.getState().setTools(v)
  const setModel = (v: string) => pg.stores.workspace.getState().setModel(v)
  const layout = usePrefs((s) => s.editorLayout)
  const tab = usePrefs((s) => s.editorTab)
  const toolsPane = usePanelRef()
  const toolsProblem = useRun((s) => s.problems.some((p) => p.file === 'tools.ts'))
  const modelProblem = useRun((s) => s.problems.some((p) => p.file === 'model.ts'))
  const switcher = (
    <button
      data-testid="editor-layout"
      className="ml-auto rounded px-1.5 py-0.5 text-[11px] text-slate-500 hover:bg-slate-200 hover:text-slate-800"
      title={layout === 'split' ? t('editorPanel.toTabsTitle') : t('editorPanel.toSplitTitle')}
      onClick={() => usePrefs.getState().setEditorLayout(layout === 'split' ? 'tabs' : 'split')}
    >
      {layout === 'split' ? `⊟ ${t('editorPanel.tabs')}` : `⊞ ${t('editorPanel.split')}`}
    </button>
  )
  if (layout === 'tabs') {
    return (
      <div className="flex min-h-0 flex-1 flex-col">
        <div role="tablist" aria-label={t('editorPanel.files')} className="flex items-end gap-1 border-b border-slate-200 bg-slate-100 px-2 pt-1 font-mono text-xs">
          {(['tools.ts', 'model.ts'] as const).map((file) => (
            <button
              key={file}
              role="tab"
              data-testid={`editor-tab-${file.replace('.ts', '')}`}
              aria-selected={tab === file}
              onClick={() => usePrefs.getState().setEditorTab(file)}
              className={`rounded-t px-3 py-1 ${tab === file ? 'border border-b-white border-slate-200 bg-white font-semibold text-slate-900' : 'text-slate-500 hover:text-slate-800'}`}
            >
              {file}
              {(file === 'tools.ts' ? toolsProblem : modelProblem) && <span className="ml-1 text-red-600" title={t('editorPanel.hasErrors')}>●</span>}
            </button>
          ))}
          {switcher}
        </div>
        {/* Both stay mounted so Monaco keeps each file's undo stack, cursor and types. */}
        <div className={`min-h-0 flex-1 flex-col ${tab === 'tools.ts' ? 'flex' : 'hidden'}`}>
          <FileEditor file="tools.ts" testId="editor-tools" value={tools} onChange={setTools} />
        </div>
        <div className={`min-h-0 flex-1 flex-col ${tab === 'model.ts' ? 'flex' : 'hidden'}`}>
          <FileEditor file="model.ts" testId="editor-model" value={model} onChange={setModel} />
        </div>
      </div>
    )
  }
  return (
    <PaneGroup id="panes-editors" orientation="vertical" className="min-h-0 flex-1">
      <Panel id="pane-tools" panelRef={toolsPane} collapsible defaultSize="60%" minSize={60} className="flex h-full min-h-0 flex-col">
        <FileEditor file="tools.ts" testId="editor-tools" value={tools} onChange={setTools} extra={switcher} />
      </Panel>
      <PaneDivider pane={toolsPane} orientation="vertical" label={t('editorPanel.resizeEditors')} />
      <Panel id="pane-model" collapsible minSize={60} className="flex h-full min-h-0 flex-col">
        <FileEditor file="model.ts" testId="editor-model" value={model} onChange={setModel} />
      </Panel>
    </PaneGroup>
  )
}

/** The user's input message and the two source files, tools.ts above model.ts. */
export function EditorPanel() {
  const { t } = useTranslation()
  const pg = usePlayground()
  const tools = useWorkspace((s) => s.tools)
  const model = useWorkspace((s) => s.model)
  const input = useWorkspace((s) => s.input)
  const problems = useRun((s) => s.problems)
  const elsewhere = problems.filter((p) => p.file !== 'tools.ts' && p.file !== 'model.ts')
  return (
    <div className="flex h-full min-h-0 flex-col">
      {/* The settings scroll on their own, so opening them never squeezes the editors to a few lines. */}
      <div className="max-h-[45%] shrink-0 overflow-auto">
      <label className="flex flex-col gap-1 border-b border-slate-200 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t('editorPanel.userMessage')}
        <textarea
          data-testid="user-input"
          value={input}
          rows={2}
          onChange={(e) => pg.stores.workspace.getState().setInput(e.target.value)}
          className="resize-y rounded border border-slate-300 px-2 py-1 font-sans text-sm font-normal normal-case tracking-normal text-slate-900"
        />
      </label>
      <SystemPromptPreview />
      <LoopSettingsPanel />
      </div>
      {elsewhere.map((p, i) => {
        const said = codeProblemText(t, p)
        return (
          <div key={i} role="alert" data-testid="code-problem" className="border-b border-red-300 bg-red-50 px-3 py-1.5 text-sm text-red-800">
            {t('editorPanel.cantRun')}{' '}
            <ProblemMessage said={said} />
          </div>
        )
      })}
      <SourceEditors tools={tools} model={model} />
    </div>
  )
}
