/**
 * Running a live loop until a breakpoint hits. The runner performs one phase per `step()`;
 * before each step the breakpoints are asked about the phase it will perform, after it about
 * every event it appended.
 */
import { PHASE_OF, type Phase, type SessionEvent } from '../loop/events'
import { nextEffects, type LoopState } from '../loop/index'
import type { LoopRunner } from '../loop/runner'
import { addToBreakTurn, createBreakTurn, findBreakHitIn, pointOrdinal, type ArmedBreakpoint, type BreakHit } from './breakpoints'

/** The phase the runner performs next, or `null` once the loop has stopped. Pure. */
export function upcomingPhase(state: LoopState): Phase | null {
  const effect = nextEffects(state)[0]
  if (!effect) return null
  switch (effect.type) {
    case 'call_model':
      return 'decide'
    case 'confirm':
      return 'confirm'
    case 'run_tools':
      return 'execute'
    case 'parse':
    case 'validate':
      return effect.type
    case 'append':
      return PHASE_OF[effect.event.type]
  }
}

/**
 * Steps `runner` (already started) until a breakpoint hits or the loop stops. Resolves with
 * the hit, or `null` when the loop stopped without one. `resumeAfter` (a previous hit's `at`)
 * continues past that hit. A hit after an event is reported once the step that appended it
 * is complete (an execute step appends one event per call); its `seq` says where it was.
 * Rejects only when the runner does (a step already in progress). `pause`, when given, is awaited
 * after each step (the playground gives `nextTask`, so each phase and its drawing is a task of its own).
 */
export async function runUntilBreak(runner: LoopRunner, armed: readonly ArmedBreakpoint[], resumeAfter = -1, pause?: () => Promise<void>): Promise<BreakHit | null> {
  // The breakpoints' view of the turn, folded once per event as the run appends them, so a
  // turn of 100 000 calls is checked in linear time.
  const turn = createBreakTurn()
  let folded = 0
  const foldUpTo = (events: readonly SessionEvent[], end: number): void => {
    for (; folded < end; folded++) addToBreakTurn(turn, events[folded]!)
  }
  while (!runner.stopped) {
    const phase = upcomingPhase(runner.state)
    if (phase && phase !== 'stop') {
      const events = runner.events
      if (pointOrdinal(events, { when: 'before', phase }) > resumeAfter) {
        foldUpTo(events, events.length)
        const hit = findBreakHitIn(armed, turn, events.length, { when: 'before', phase })
        if (hit) return hit
      }
    }
    const appended = await runner.step()
    if (appended.length === 0) break
    if (pause) await pause()
    const events = runner.events
    for (const event of appended) {
      foldUpTo(events, event.seq + 1)
      if (2 * event.seq + 1 <= resumeAfter) continue
      const hit = findBreakHitIn(armed, turn, event.seq + 1, { when: 'after', event })
      if (hit) return hit
    }
  }
  return null
}
