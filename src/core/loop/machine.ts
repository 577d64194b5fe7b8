/**
 * The loop engine's centre: `transition(state, event) → [state, effects]` — fold the event
 * (`reducer.ts`), then decide what must happen next (`decider.ts`). Pure: it performs nothing;
 * the runner (`runner.ts`) performs the effects and feeds their outcomes back through it.
 *
 * State chart. A state is named by the last event applied; an arrow is labelled with the
 * condition and, in brackets, the effect the decider returns; the runner's outcome of that
 * effect is the next event.
 *
 *   (initial) ──session.started──▶ START ─[call_model]─────────────────────────────┐
 *                                                                                    ▼
 *   ┌──────────────────────────────────────────────────────────────────▶ model.responded ─[append parse]─▶ PARSED
 *   │                                                                   model.failed ─[stop error]─▶ STOPPED
 *   │
 *   │  PARSED ── calls ─────────────────[append validate]──▶ VALIDATED
 *   │         ── no call / final turn / malformed, retries left ─[append backfill]──▶ BACKFILLED
 *   │         ── malformed, retries spent ──[stop error]──▶ STOPPED
 *   │
 *   │  VALIDATED ── repeated call (stop mode) ──[stop repeated_call]──▶ STOPPED
 *   │            ── dangerous calls ──[append confirm.requested]──▶ CONFIRMING ─[confirm]─▶ DECIDED
 *   │            ── otherwise ──[run_tools]──▶ RAN                   DECIDED ─[run_tools]─▶ RAN
 *   │
 *   │  RAN (tool.finished) ── calls pending ──[run_tools: those]──▶ RAN
 *   │                      ── all done ──[append backfill]──▶ BACKFILLED
 *   │
 *   │  BACKFILLED ── final turn ──[stop max_steps]──▶ STOPPED
 *   │             ── answered ──[stop final_answer]──▶ STOPPED
 *   │             ── steps used, no final turn ──[stop max_steps]──▶ STOPPED
 *   └──────────── ── steps used, final turn on ──[call_model, tools off]
 *                 ── otherwise ──[call_model]
 *
 *   loop.stopped: terminal, no effects. `abort` appends it from any state.
 *
 * A phase that yields several events (the tool.finished of a turn) is committed by folding all
 * but the last with `apply` and passing the last through `transition`: the decision after a
 * partial batch would list the pending calls, O(n) each time, O(n²) for the turn.
 *
 * Because `apply` accepts any event in any order, the same fold rebuilds replayed logs and
 * loaded session files.
 */
import type { SessionEvent } from './events'
import { nextEffects, type Effect } from './decider'
import { apply, type LoopState } from './reducer'

/** `transition(state, event) → [state, effects]`: apply the event, then decide. Pure; never throws. */
export function transition(state: LoopState, event: SessionEvent): [LoopState, Effect[]] {
  const next = apply(state, event)
  return [next, nextEffects(next)]
}
