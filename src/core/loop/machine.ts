/**
 * The loop engine's centre: `transition(state, event) → [state, effects]` — fold the event
 * (`reducer.ts`), then decide what must happen next (`decider.ts`). Pure: it performs nothing;
 * the runner (`runner.ts`) performs the effects and feeds their outcomes back through it.
 *
 * State chart (by the last event applied; `[x]` = effect the decider returns):
 *
 *   session.started ──[call_model]──▶ model.responded ──[append parse]──▶ parse.completed
 *          │                                │                                │
 *          │                    model.failed ──[stop error]──┐               ├─ calls ──[append validate]──▶ validate.completed
 *          │                                                 │               ├─ malformed, retries left / final turn /
 *          │                                                 │               │  no call ──[append backfill]──┐
 *          │                                                 │               └─ malformed, retries spent ──[stop error]
 *          │                                                 │
 *          │   validate.completed ─┬─ repeated (stop) ──[stop repeated_call]
 *          │                       ├─ dangerous calls ──[append confirm.requested]──▶ confirm.requested ──[confirm]──▶ confirm.decided
 *          │                       └─ otherwise ──[run_tools]──▶ tool.finished ×n          confirm.decided ──[run_tools]──┘
 *          │
 *          │   tool.finished ─┬─ calls still pending ──[run_tools (those)]
 *          │                  └─ all done ──[append backfill]──▶ backfill.completed
 *          │
 *          │   backfill.completed ─┬─ final turn ──[stop max_steps]
 *          │                       ├─ answered ──[stop final_answer]
 *          │                       ├─ steps used, final turn on ──[call_model (tools off)]
 *          │                       ├─ steps used ──[stop max_steps]
 *          └───────────────────────┴─ otherwise ──[call_model] ──▶ model.responded …
 *
 *   loop.stopped: terminal, no effects. `abort` appends it from any state.
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
