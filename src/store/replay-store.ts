/**
 * An imported foreign log: the compact index of its conversations (the conversations
 * themselves stay in the import worker), which one is open, an import in progress, and an
 * optional tools file used to check logged calls against their schemas.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ToolSpec } from '../core/tools'
import type { Phrase } from '../core/util'
import type { ConversationSummary, ImportStage } from '../sandbox/log-import-host'

export type { ConversationSummary } from '../sandbox/log-import-host'

/** An import (or a re-check against a tools file) that is running in the worker. */
export interface ImportProgress {
  /** The file being read (or what stands for it, in English: `4 files`). */
  fileName: string
  /** `fileName` as a phrase of STORE_TEXT when it is not a file's name (`filesLabel`, `logOwnTools`), for the UI to translate. */
  fileNamePhrase?: Phrase
  stage: ImportStage
  /** Overall fraction done, 0..1. */
  fraction: number
  /** False for a re-check, which runs on the open log and cannot be abandoned half-way. */
  cancellable: boolean
}

export interface ReplayState {
  fileName: string | null
  /** `fileName` as a phrase of STORE_TEXT when several files were imported together (`4 files`), for the UI to translate. */
  fileNamePhrase: Phrase | null
  format: string | null
  /** One entry per conversation of the log, in log order (`conversations[i].index === i`). */
  conversations: ConversationSummary[]
  /** Index of the open conversation, -1 when none. */
  selected: number
  /** Tools loaded from an OpenAI `tools` file, when any. */
  tools: ToolSpec[] | null
  toolsFileName: string | null
  /** The import in progress, if any. */
  importing: ImportProgress | null
}

/** A fresh replay slice (no log open). */
export function createReplayStore(): StoreApi<ReplayState> {
  return createStore<ReplayState>()(() => ({
    fileName: null,
    fileNamePhrase: null,
    format: null,
    conversations: [],
    selected: -1,
    tools: null,
    toolsFileName: null,
    importing: null,
  }))
}
