/**
 * The loop's public surface: what `src/ui`, `src/store`, `src/sandbox` and `src/cli` may import.
 *
 * - Events: the session log's schema (`events.ts`).
 * - Engine: `transition` (reducer + decider), the pure phase builders, `modelRequest`, and the
 *   `LoopRunner` that performs effects.
 * - Presentation (`present/`): timeline wording, logged-vs-re-run diff, and the request at a decide.
 */
export {
  anomalySchema,
  phraseSchema,
  decisionSchema,
  parsedCallSchema,
  PHASE_OF,
  sessionEventSchema,
  stopReasonSchema,
  validationPolicySchema,
  verdictSchema,
  warningSchema,
  type AnomalyFlag,
  type Decision,
  type NewSessionEvent,
  type Phase,
  type SessionEvent,
  type SessionEventType,
  type StopReason,
  type ValidationPolicy,
  type Verdict,
  type Warning,
} from './events'
export { apply, fold, initialLoopState, turnResults, type IdentifiedParse, type LoopState, type ToolFinished } from './reducer'
export { nextEffects, type Effect } from './decider'
export { createFoldCache, type FoldCache } from './fold-cache'
export { createAppendFold, extendsLog, type AppendFoldSteps } from './append-fold'
export { transition } from './machine'
export {
  backfillMessages,
  backfillTurn,
  correctionMessage,
  generatedCallId,
  loggedToolFinished,
  modelResponded,
  parseTurn,
  rawOutput,
  runnableCalls,
  stopAtLogEnd,
  stopped,
  validateTurn,
  type RunnableCall,
} from './phases'
export {
  FINAL_TURN_NOTICE,
  layoutMessages,
  modelRequest,
  requestLayout,
  type PlannedRequest,
  type RequestLayout,
  type RequestPart,
  type RequestSettings,
} from './model-request'
export { Conversation } from './conversation'
export { pairedEarliest, safeTrimStart, systemHead, windowBounds, windowMessages, type ContextWindow, type MessageSequence, type WindowBounds } from './context-window'
export { signature } from './signature'
export { inThreadPhases, parseInput, validateInput, type ParseCompleted, type ParseInput, type PhaseRunner, type ValidateCompleted, type ValidateInput } from './phase-runner'
export { LoopRunner, COMMIT_SLICE, DEFAULT_MAX_STEPS, type ConfirmHandler, type RunInit, type RunnerOptions } from './runner'
export { runInitFor } from './start'
export { buildSystemPrompt, withOfferedTools } from './system-prompt'
export { DECLINED_RESULT, declinedError, executeCalls, planWaves, START_SLICE, STOPPED_NOT_RUN, type ExecuteDeps } from './execute-calls'
export { parseCodeAction, parseWithFallback, RUN_CODE } from './parse-turn'
export { DEFAULT_LOOP_SETTINGS, faultSchema, loopSettings, loopSettingsSchema, settingsSchema, type Fault, type LoopSettings, type Settings, type SettingsInput } from './settings'
export { findInjections, truncateResult, truncationMarker, wrapUntrusted, type InjectionMatch } from './shape-result'
export { faultFor, GARBAGE_RESULT, HUGE_RESULT_CHARS, hugeResult } from './faults'
export type {
  CodeOutcome,
  CodeRunner,
  CodeToolCall,
  Model,
  ModelOutput,
  ModelRequest,
  NativeAssistantMessage,
  ResultSummarizer,
  ToolExecutor,
  ToolOutcome,
  ToolRouter,
} from './interfaces'
export { describeEvent, summarizeEvent, renderSummary, fmtMs, EVENT_TEXT, INFORMATIONAL_REPAIRS, type EventSummary, type EventSummaryText, type EventTextKey, type Tone } from './present/describe'
export { cellOf, diffSessions, stopOf, turnsOf, type DiffCellLines, type DiffRow, type TurnSummary } from './present/diff'
export { createRequestCache, requestAt } from './present/request-at'
export { LOOP_TEXT, loopEnglish, loopPhrase, loopRef, storedPhrase, type LoopPhrase, type LoopTextKey, type StoredPhrase } from './loop-text'
export { nextTask } from './next-task'
