/**
 * The mounted code editors, by file, so the rest of the page can focus a position or read the
 * type checker's errors without loading Monaco itself (it lives in a lazily loaded chunk).
 */

/** What an editor offers the page. */
export interface EditorHandle {
  /** Focuses the editor with the caret at 1-based `line` and `column`, scrolled into view. */
  reveal(line: number, column: number): void
  /** The editor's current errors (TypeScript's and ours), 1-based positions. */
  errors(): { line: number; column: number; message: string }[]
}

const editors = new Map<string, EditorHandle>()

/** Registers the editor for `file`; returns the function that unregisters it. */
export function registerEditor(file: string, handle: EditorHandle): () => void {
  editors.set(file, handle)
  return () => {
    if (editors.get(file) === handle) editors.delete(file)
  }
}

/** Focuses `file` at `line`:`column`; false when its editor is not mounted. */
export function revealInEditor(file: string, line: number, column = 1): boolean {
  const editor = editors.get(file)
  if (!editor) return false
  editor.reveal(line, column)
  return true
}

/** The first error of each mounted editor, e.g. for a warning on Run. */
export function editorErrors(): { file: string; line: number; column: number; message: string }[] {
  return [...editors].flatMap(([file, editor]) => editor.errors().slice(0, 1).map((e) => ({ file, ...e })))
}
