/**
 * An imported foreign log: its conversations, which one is open, and an optional
 * tools file used to check logged calls against their schemas.
 */
import { create } from 'zustand'
import type { ImportedConversation } from '../core/trace/index'
import type { ToolSpec } from '../core/tools/types'

export interface ReplayState {
  fileName: string | null
  format: string | null
  conversations: ImportedConversation[]
  /** Index of the open conversation, -1 when none. */
  selected: number
  /** Tools loaded from an OpenAI `tools` file, when any. */
  tools: ToolSpec[] | null
  toolsFileName: string | null
}

export const useReplay = create<ReplayState>()(() => ({
  fileName: null,
  format: null,
  conversations: [],
  selected: -1,
  tools: null,
  toolsFileName: null,
}))
