import { lazy, Suspense } from 'react'
import { useCodeCheck, usePlayground, useRun, useWorkspace } from './playground-context'
import { buildSystemPrompt } from '../core/loop/system-prompt'

import { LoopSettingsPanel } from './LoopSettingsPanel'

const CodeEditor = lazy(() => import('./editors/CodeEditor'))

function ProblemBanner({ file }: { file: string }) {
  const problem = useRun((s) => s.problems.find((p) => p.file === file))
  if (!problem) return null
  return (
    <div role="alert" data-testid="code-problem" className="border-b border-red-300 bg-red-50 px-3 py-1.5 text-sm text-red-800">
      <span className="font-semibold">
        Can&apos;t run: {problem.file}
        {problem.line ? `:${problem.line}${problem.column ? `:${problem.column}` : ''}` : ''}
      </span>{' '}
      — {problem.message}
    </div>
  )
}

function FileEditor({ file, testId, value, onChange }: { file: string; testId: string; value: string; onChange(v: string): void }) {
  const problem = useRun((s) => s.problems.find((p) => p.file === file) ?? null)
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-1 font-mono text-xs text-slate-600">
        <span>{file}</span>
      </div>
      <ProblemBanner file={file} />
      <div data-testid={testId} className="min-h-0 flex-1">
        <Suspense fallback={<div className="p-3 text-sm text-slate-500">Loading editor…</div>}>
          <CodeEditor path={file} value={value} onChange={onChange} problem={problem} />
        </Suspense>
      </div>
    </div>
  )
}

/** The system prompt the model will receive with the current tools and wire format. */
function SystemPromptPreview() {
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
        System prompt <span className="font-normal normal-case text-slate-400">({protocol} · {broken ? 'tools.ts has errors' : `${tools.length} tool${tools.length === 1 ? "" : "s"}`}{checking ? ' · checking…' : ''})</span>
      </summary>
      <label className="mt-1 flex flex-col gap-1 text-slate-600">
        Your text (placed before the generated tool instructions)
        <textarea
          data-testid="system-prompt-input"
          rows={2}
          value={base}
          onChange={(e) => pg.stores.workspace.getState().setSettings({ systemPrompt: e.target.value })}
          className="rounded border border-slate-300 px-2 py-1 font-sans text-sm text-slate-900"
        />
      </label>
      <pre data-testid="system-prompt" className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] text-slate-700">
        {prompt || '(empty)'}
      </pre>
    </details>
  )
}

/** The user's input message and the two source files, tools.ts above model.ts. */
export function EditorPanel() {
  const pg = usePlayground()
  const tools = useWorkspace((s) => s.tools)
  const model = useWorkspace((s) => s.model)
  const input = useWorkspace((s) => s.input)
  const problems = useRun((s) => s.problems)
  const elsewhere = problems.filter((p) => p.file !== 'tools.ts' && p.file !== 'model.ts')
  return (
    <div className="flex h-full min-h-0 flex-col">
      <label className="flex flex-col gap-1 border-b border-slate-200 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        User message
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
      {elsewhere.map((p, i) => (
        <div key={i} role="alert" data-testid="code-problem" className="border-b border-red-300 bg-red-50 px-3 py-1.5 text-sm text-red-800">
          Can&apos;t run: {p.message}
        </div>
      ))}
      <div className="flex min-h-0 flex-[3] flex-col border-b border-slate-200">
        <FileEditor file="tools.ts" testId="editor-tools" value={tools} onChange={(v) => pg.stores.workspace.getState().setTools(v)} />
      </div>
      <div className="flex min-h-0 flex-[2] flex-col">
        <FileEditor file="model.ts" testId="editor-model" value={model} onChange={(v) => pg.stores.workspace.getState().setModel(v)} />
      </div>
    </div>
  )
}
