import Editor, { type OnMount } from '@monaco-editor/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { usePlayground } from '../playground-context'
import { useFontScale } from '../teach/teach-context'
import { setupMonaco } from './monaco-setup'
import { SHORTCUTS } from '../shortcuts'
import { registerEditor } from './registry'
import { codeProblemText } from '../i18n/code-errors'
import type { CorePhrase } from '../i18n/text'

const monaco = setupMonaco()

/** Monaco keybindings of the shortcuts that must work inside an editor, by action id. */
const MONACO_KEYS: Record<string, number> = {
  'toolstep.run': monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter,
  'toolstep.step': monaco.KeyCode.F10,
  'toolstep.back': monaco.KeyMod.Shift | monaco.KeyCode.F10,
}

export interface CodeEditorProps {
  /** Model URI path, e.g. `tools.ts`; keys Monaco's model so types flow between files. */
  path: string
  value: string
  onChange(value: string): void
  /** Error to mark in the editor (from the sandbox), 1-based line/column. */
  problem?: { line?: number; column?: number; message: string; phrase?: CorePhrase | undefined } | null
  readOnly?: boolean
  language?: string
}

/** A Monaco editor for one workspace file. Default export so it can be `React.lazy`-loaded. */
export default function CodeEditor({ path, value, onChange, problem, readOnly, language = 'typescript' }: CodeEditorProps) {
  const { t } = useTranslation()
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null)
  const unregister = useRef<(() => void) | null>(null)
  const pg = usePlayground()
  const playground = useRef(pg)
  playground.current = pg
  useEffect(() => () => unregister.current?.(), [])
  const fontScale = useFontScale()

  useEffect(() => {
    const said = problem ? codeProblemText(t, problem) : undefined
    const model = monaco.editor.getModel(monaco.Uri.parse(`file:///${path}`))
    if (!model) return
    monaco.editor.setModelMarkers(
      model,
      'toolstep',
      problem?.line
        ? [{ severity: monaco.MarkerSeverity.Error, message: said?.original ? `${said.text}\n${said.original}` : (said?.text ?? problem.message), startLineNumber: problem.line, startColumn: problem.column ?? 1, endLineNumber: problem.line, endColumn: (problem.column ?? 1) + 1 }]
        : [],
    )
    if (problem?.line) editorRef.current?.revealLineInCenter(problem.line)
  }, [problem, path, t])

  return (
    <Editor
      path={`file:///${path}`}
      language={language}
      value={value}
      theme="vs"
      onMount={(editor) => {
        editorRef.current = editor
        unregister.current?.()
        unregister.current = registerEditor(path, {
          reveal(line, column) {
            editor.setPosition({ lineNumber: line, column })
            editor.revealPositionInCenter({ lineNumber: line, column })
            editor.focus()
          },
          errors() {
            const model = editor.getModel()
            if (!model) return []
            return monaco.editor
              .getModelMarkers({ resource: model.uri })
              .filter((m) => m.severity === monaco.MarkerSeverity.Error)
              .map((m) => ({ line: m.startLineNumber, column: m.startColumn, message: m.message }))
          },
        })
        // Run / Step / Back from inside the editor: without these, Ctrl+Enter typed a newline
        // and Shift+F10 opened the context menu.
        for (const shortcut of SHORTCUTS) {
          const keybinding = shortcut.monacoId ? MONACO_KEYS[shortcut.monacoId] : undefined
          if (!shortcut.monacoId || !shortcut.run || keybinding === undefined) continue
          const action = shortcut.run
          editor.addAction({ id: shortcut.monacoId, label: `Toolstep: ${shortcut.description}`, keybindings: [keybinding], run: () => action(playground.current) })
        }
      }}
      onChange={(v) => onChange(v ?? '')}
      // Monaco draws its context menu in a shadow root beside the editor, where the theme's
      // colour variables (set on `.monaco-editor, .monaco-component`) do not reach: it had no
      // background over the code. Custom properties do inherit into a shadow root, so the
      // wrapper carries the class the theme rule targets.
      wrapperProps={{ className: 'monaco-component' }}
      loading={<div className="p-3 text-sm text-slate-500">{t('editorPanel.loadingEditor')}</div>}
      options={{
        readOnly,
        minimap: { enabled: false },
        fontSize: Math.round(13 * fontScale),
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
