import type * as monaco from 'monaco-editor/editor'

declare global {
  interface Window {
    __monaco?: typeof monaco
  }
}
