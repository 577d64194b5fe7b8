import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/loop'
import { memoryStorage } from '../../store/storage'
import { LESSONS_KEY, PRESENTER_KEY, clampFontSize, createTeachStore } from './teach-store'

const stopped = (reason: 'repeated_call' | 'max_steps', calls: number): SessionEvent[] => [
  ...Array.from({ length: calls }, (_, i) => ({ seq: i, at: 0, type: 'tool.finished', callId: `c${i}`, name: 'search_docs', result: 'x', durationMs: 1, timedOut: false, truncated: false }) as SessionEvent),
  { seq: calls, at: 0, type: 'loop.stopped', reason },
]

describe('teach store', () => {
  it('checks the chosen lesson\'s challenge, says what is wrong, and records progress only on a pass', () => {
    const storage = memoryStorage()
    const store = createTeachStore(storage)
    store.getState().selectLesson('fail-endless-loop')
    expect(store.getState().checkChallenge([])?.problems).toEqual([{ key: 'notRun' }])
    const failed = store.getState().checkChallenge(stopped('max_steps', 10))
    expect(failed?.passed).toBe(false)
    expect(failed?.problems.map((p) => p.key)).toEqual(['stopReason', 'tooManyCalls'])
    expect(store.getState().done).toEqual([])
    expect(store.getState().checkChallenge(stopped('repeated_call', 3))?.passed).toBe(true)
    expect(store.getState().done).toEqual(['fail-endless-loop'])
    expect(JSON.parse(storage.entries.get(LESSONS_KEY) ?? '{}')).toEqual({ lessonId: 'fail-endless-loop', done: ['fail-endless-loop'] })
  })

  it('restores the lesson, progress and text size; drops unknown lessons and bad values', () => {
    const storage = memoryStorage({
      [LESSONS_KEY]: JSON.stringify({ lessonId: 'step-cap', done: ['step-cap', 'no-such-lesson', 7] }),
      [PRESENTER_KEY]: JSON.stringify({ fontSize: 150 }),
    })
    const state = createTeachStore(storage).getState()
    expect([state.lessonId, state.done, state.fontSize]).toEqual(['step-cap', ['step-cap'], 150])
    const broken = createTeachStore(memoryStorage({ [LESSONS_KEY]: '{oops', [PRESENTER_KEY]: '[1]' })).getState()
    expect([broken.lessonId, broken.done, broken.fontSize]).toEqual([null, [], 100])
  })

  it('keeps the text size within 100–200 %', () => {
    expect([clampFontSize(50), clampFontSize(149.6), clampFontSize(900), clampFontSize(Number.NaN)]).toEqual([100, 150, 200, 100])
    const store = createTeachStore(memoryStorage())
    store.getState().setFontSize(250)
    expect(store.getState().fontSize).toBe(200)
  })

  it('a lesson without a challenge has nothing to check', () => {
    const store = createTeachStore(memoryStorage())
    store.getState().selectLesson('registry-tags')
    expect(store.getState().checkChallenge(stopped('max_steps', 1))).toBeNull()
  })
})
