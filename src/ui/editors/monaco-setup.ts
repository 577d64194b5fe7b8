/**
 * Monaco, bundled with the app: no CDN, so the playground works offline.
 * Imported only by the lazily loaded editor component.
 */
import * as monaco from 'monaco-editor/editor'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/definitions/typescript/register'
import 'monaco-editor/languages/definitions/javascript/register'
import {
  getTypeScriptWorker,
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
  typescriptDefaults,
} from 'monaco-editor/languages/features/typescript/register'
import { loader } from '@monaco-editor/react'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker'
// Generated at build time from src/sandbox/authoring.ts (scripts/authoring-types.ts).
import toolstepTypes from 'virtual:toolstep-types'

declare global {
  interface Window {
    /** Exposed so end-to-end tests can read and set editor contents without typing. */
    __monaco?: typeof monaco
    /** The TypeScript worker, so end-to-end tests can wait for its diagnostics instead of a fixed delay. */
    __monacoTypeScript?: { getTypeScriptWorker: typeof getTypeScriptWorker }
  }
}

let initialised = false

/** Idempotent: registers workers, the `toolstep` module's types, and points the React wrapper at the bundled Monaco. */
export function setupMonaco(): typeof monaco {
  if (initialised) return monaco
  initialised = true
  self.MonacoEnvironment = {
    getWorker: (_id: string, label: string) => (label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker()),
  }
  typescriptDefaults.setCompilerOptions({
    target: ScriptTarget.ESNext,
    module: ModuleKind.ESNext,
    moduleResolution: ModuleResolutionKind.NodeJs,
    strict: true,
    noEmit: true,
    allowNonTsExtensions: true,
  })
  typescriptDefaults.setExtraLibs(toolstepTypes.map(({ path, content }) => ({ filePath: path, content })))
  loader.config({ monaco })
  window.__monaco = monaco
  window.__monacoTypeScript = { getTypeScriptWorker }
  return monaco
}
