/**
 * An imported foreign log: the compact index of its conversations (the conversations
 * themselves stay in the import worker), which one is open, an import in progress, and an
 * optional tools file used to check logged calls against their schemas.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ToolSpec } from '../core/tools'
import type { ConversationSummary, ImportStage } from '../sandbox/log-import-host'

export type { ConversationSummary } from '../sandbox/log-import-host'

/** An import (or a re-check against a tools file) that is running in the worker. */
export interface ImportProgress {
  /** The file being read. */
  fileName: string
  stage: ImportStage
  /** Overall fraction done, 0..1. */
  fraction: number
  /** False for a re-check, which runs on the open log and cannot be abandoned half-way. */
  cancellable: boolean
}

export interface ReplayState {
  fileName: string | null
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
    format: null,
    conversations: [],
    selected: -1,
    tools: null,
    toolsFileName: null,
    importing: null,
  }))
}
