import type * as monaco from 'monaco-editor/editor'
import type { getTypeScriptWorker } from 'monaco-editor/languages/features/typescript/register'

declare global {
  interface Window {
    __monaco?: typeof monaco
    __monacoTypeScript?: { getTypeScriptWorker: typeof getTypeScriptWorker }
  }
}
