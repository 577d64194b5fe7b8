import Editor, { type OnMount } from '@monaco-editor/react'
import { useEffect, useRef } from 'react'
import { setupMonaco } from './monaco-setup'

const monaco = setupMonaco()

export interface CodeEditorProps {
  /** Model URI path, e.g. `tools.ts`; keys Monaco's model so types flow between files. */
  path: string
  value: string
  onChange(value: string): void
  /** Error to mark in the editor (from the sandbox), 1-based line/column. */
  problem?: { line?: number; column?: number; message: string } | null
  readOnly?: boolean
  language?: string
}

/** A Monaco editor for one workspace file. Default export so it can be `React.lazy`-loaded. */
export default function CodeEditor({ path, value, onChange, problem, readOnly, language = 'typescript' }: CodeEditorProps) {
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null)

  useEffect(() => {
    const model = monaco.editor.getModel(monaco.Uri.parse(`file:///${path}`))
    if (!model) return
    monaco.editor.setModelMarkers(
      model,
      'toolstep',
      problem?.line
        ? [{ severity: monaco.MarkerSeverity.Error, message: problem.message, startLineNumber: problem.line, startColumn: problem.column ?? 1, endLineNumber: problem.line, endColumn: (problem.column ?? 1) + 1 }]
        : [],
    )
    if (problem?.line) editorRef.current?.revealLineInCenter(problem.line)
  }, [problem, path])

  return (
    <Editor
      path={`file:///${path}`}
      language={language}
      value={value}
      theme="vs"
      onMount={(editor) => {
        editorRef.current = editor
      }}
      onChange={(v) => onChange(v ?? '')}
      loading={<div className="p-3 text-sm text-slate-500">Loading editor…</div>}
      options={{
        readOnly,
        minimap: { enabled: false },
        fontSize: 13,
        scrollBeyondLastLine: false,
        automaticLayout: true,
        tabSize: 2,
        wordWrap: language === 'plaintext' ? 'on' : 'off',
        renderLineHighlight: 'line',
        fixedOverflowWidgets: true,
      }}
    />
  )
}
