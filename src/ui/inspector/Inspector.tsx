import { Suspense, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { coreDetail } from '../i18n/text'
import { usePlayground, useRun } from '../playground-context'
import { type SessionEvent, PHASE_OF, createFoldCache, createRequestCache, fmtMs } from '../../core/loop'
import { AnomalyList } from './AnomalyList'
import { MessageList } from './MessageList'
import { ParsedView, highlightsOf } from './ParsedView'
import { RawOutput } from './RawOutput'
import { StreamPlayer } from './StreamPlayer'
import { ToolResults } from './ToolResults'
import { EditApplied, EditBox, type EditTarget } from '../debug/EditControls'
// A recorded response (imported logs only) reads its stream with the log importers: their own chunk.
import { RecordedResponse } from '../lazy-panels'
import { LongText } from './LongText'
import { InlineArguments } from './ArgumentsText'
import { WindowedList } from './WindowedList'
import { verdictText } from '../i18n/core-text'
import { createTurnIndex } from './turn-index'

function Section({ title, active, children, testId }: { title: string; active: boolean; children: ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} className={`rounded-md border p-2 ${active ? 'border-sky-400 bg-sky-50/40 shadow-sm' : 'border-slate-200 bg-white'}`}>
      <h3 className="mb-1.5 text-[11px] font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {children}
    </section>
  )
}

/**
 * What happened in the current turn, up to the cursor: the raw model output beside the
 * calls parsed out of it, validation verdicts, tool results and the backfilled messages.
 */
export function Inspector({ events, cursor }: { events: readonly SessionEvent[]; cursor: number }) {
  const { t } = useTranslation()
  const pg = usePlayground()
  const [tab, setTab] = useState<'turn' | 'context'>('turn')
  // Folding up to the cursor on every move would cost the whole log (0.5 s at 100 000 events).
  const [folds] = useState(createFoldCache)
  const state = useMemo(() => folds.foldTo(events, cursor), [folds, events, cursor])
  const mode = useRun((s) => s.mode)
  const busy = useRun((s) => s.status === 'running' || s.status === 'loading')
  const [editing, setEditing] = useState<EditTarget | null>(null)
  // The turn at the cursor, read from the log filed by turn (a turn of 100 000 results is not sliced and searched on every update).
  const [turnIndexOf] = useState(createTurnIndex)
  const turns = useMemo(() => turnIndexOf(events), [turnIndexOf, events])
  const turn = useMemo(() => turns.turnAt(cursor), [turns, cursor])
  // The request of a turn's decide does not change while the run appends to the turn.
  const [requestOf] = useState(createRequestCache)
  // Exactly what the model received at this turn's decide (window, routing and final turn applied).
  const context = useMemo(() => {
    const decide = turn.responded ?? turn.failed
    return requestOf(events, decide ? decide.seq : cursor)
  }, [events, turn, cursor, requestOf])
  // 300 000 ranges for a turn of 100 000 calls: made once per parse, not on every update.
  const highlights = useMemo(() => highlightsOf(turn.parsed?.calls ?? []), [turn.parsed])
  const contextMessages = context.messages
  const current = events[cursor]
  if (!current) return null
  const phase = PHASE_OF[current.type]

  const { started, responded, failed, parsed, validated, finished, confirmRequested, confirmDecided, backfilled, stopped, edits } = turn
  const ownResults = finished.filter((f) => f.parentCallId === undefined)
  const warnings = turn.flagged.flatMap((e) => e.warnings ?? [])
  const anomalies = turn.flagged.flatMap((e) => (e.anomalies ?? []).map((a) => ({ ...a, seq: e.seq })))
  // The turn's output as the loop went on with it: the user's edit when there is one.
  const outputEdit = edits.find((e) => e.target === 'model_output' && e.editedSeq === responded?.seq)
  const resultEdit = (seq: number) => edits.findLast((e) => e.target === 'tool_result' && e.editedSeq === seq)
  // An edit box belongs to its turn: moving the cursor to another turn closes it.
  const openEdit = editing && events.slice(turn.start, cursor + 1).some((e) => e.seq === editing.seq) ? editing : null

  return (
    <div data-testid="inspector" className="flex h-full flex-col">
      <div role="tablist" className="flex gap-1 border-b border-slate-200 px-2 pt-1 text-sm">
        {(['turn', 'context'] as const).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={`rounded-t px-3 py-1 ${tab === name ? 'border border-b-white border-slate-200 bg-white font-medium text-slate-900' : 'text-slate-500 hover:text-slate-800'}`}
          >
            {name === 'turn' ? t('inspector.thisTurn') : t('inspector.modelContext', { count: contextMessages.length })}
          </button>
        ))}
      </div>
      <div className="@container flex min-h-0 flex-1 flex-col gap-2 overflow-auto p-2">
        {tab === 'context' ? (
          <>
            <p className="text-xs text-slate-500">{t('inspector.contextHint')}</p>
            <MessageList messages={contextMessages} collapseSystem={false} />
            <ToolList tools={context.tools} />
          </>
        ) : (
          <>
            {warnings.length > 0 && (
              <Section title={t('inspector.warnings')} active>
                <ul className="flex flex-col gap-1 text-xs">
                  {warnings.map((w, i) => (
                    <li key={i} data-testid="warning" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-900">
                      <span className="font-mono font-semibold">{w.code}</span> — <span lang={w.phrase ? undefined : 'en'}>{coreDetail(t, 'loop', w)}</span>
                    </li>
                  ))}
                </ul>
              </Section>
            )}
            {anomalies.length > 0 && (
              <Section title={t('inspector.anomalies')} active>
                <AnomalyList anomalies={anomalies} />
              </Section>
            )}
            {started && (
              <Section title={started.source === 'replay' ? t('inspector.replayed') : t('inspector.start')} active={phase === 'start'}>
                <p className="mb-1 text-xs text-slate-600">
                  {t('inspector.protocol')} <span className="font-mono">{started.protocol}</span> · {t('inspector.startSummary', { maxSteps: started.maxSteps, tools: started.tools.length, count: started.tools.length })}
                </p>
                <MessageList messages={started.messages} />
              </Section>
            )}
            {/* Raw and parsed side by side when the inspector has room for both (in rem: a larger text size stacks them as a narrower pane does). */}
            {(responded || failed) && (
              <div className="grid grid-cols-1 gap-2 @min-[34rem]:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
                <Section title={`${t('inspector.raw')}${responded?.durationMs ? ` · ${fmtMs(responded.durationMs)}` : ''}`} active={phase === 'decide'}>
                  {failed ? (
                    <p data-testid="model-error" className="whitespace-pre-wrap rounded bg-red-50 p-2 text-sm text-red-700">{t('inspector.modelFailed', { error: failed.error })}</p>
                  ) : (
                    <>
                      <RawOutput raw={outputEdit?.edited ?? responded?.raw ?? ''} highlights={highlights} />
                      {responded?.recorded && (
                        <Suspense fallback={null}>
                          <RecordedResponse recorded={responded.recorded} />
                        </Suspense>
                      )}
                      {responded?.chunks && <StreamPlayer key={responded.seq} chunks={responded.chunks} firstTokenMs={responded.firstTokenMs} totalMs={responded.durationMs} />}
                      {responded && !busy && (
                        <button
                          data-testid="edit-output"
                          className="mr-3 mt-1 rounded border border-fuchsia-600 px-2 py-0.5 text-xs font-medium text-fuchsia-700 hover:bg-fuchsia-50"
                          title={t('editContinue.editOutputHint')}
                          onClick={() => setEditing({ target: 'model_output', seq: responded.seq, initial: outputEdit?.edited ?? responded.raw })}
                        >
                          {t('editContinue.editOutput')}
                        </button>
                      )}
                      {started === undefined && mode === 'replay' && responded && (
                        <button
                          data-testid="fork-here"
                          className="mr-3 mt-1 rounded border border-sky-600 px-2 py-0.5 text-xs font-medium text-sky-700 hover:bg-sky-50"
                          title={t('inspector.forkHint')}
                          onClick={() => void pg.forkAt(responded.seq)}
                        >
                          {t('inspector.fork')}
                        </button>
                      )}
                      <button
                        data-testid="open-in-parse-lab"
                        className="mt-1 text-xs text-sky-700 underline"
                        title={t('inspector.parseLabHint')}
                        onClick={() => pg.stores.parseLab.getState().open(responded?.raw ?? '', parsed?.protocol ?? state.protocol)}
                      >
                        {t('inspector.parseLab')}
                      </button>
                      {openEdit?.target === 'model_output' && <EditBox key={openEdit.seq} edit={openEdit} onClose={() => setEditing(null)} />}
                    </>
                  )}
                </Section>
                <Section title={parsed ? `${t('inspector.parsed')} · ${parsed.protocol}` : t('inspector.parsed')} active={phase === 'parse'}>
                  {!parsed ? (
                    <p className="text-xs italic text-slate-400">{t('inspector.notParsed')}</p>
                  ) : (
                    <ParsedView result={parsed}  noCallText={t('inspector.noCall')} />
                  )}
                </Section>
              </div>
            )}
            {validated && (
              <Section title={t('inspector.validation')} active={phase === 'validate'}>
                {/* A turn of 100 000 calls has 100 000 verdicts: windowed, like the parsed calls and the results. */}
                <WindowedList
                  as="ul"
                  className="flex flex-col gap-1 text-xs"
                  count={validated.verdicts.length}
                  estimate={20}
                  render={(index) => {
                    const v = validated.verdicts[index]!
                    return (
                    <li key={v.callId} data-testid="verdict" data-ok={v.ok} className={v.ok ? 'text-emerald-700' : 'text-red-700'}>
                      {v.ok ? '✓' : '✗'} <span className="font-mono">{v.name}</span> <span className="text-slate-400">[{v.callId}]</span>
                      {v.resolution && v.resolution !== 'exact' && (
                        <span data-testid="resolution" className="ml-2 rounded bg-sky-100 px-1 text-sky-800">
                          {t(`inspector.resolution.${v.resolution}`)}
                        </span>
                      )}
                      {v.confirm && <span className="ml-2 rounded bg-orange-100 px-1 text-orange-800">{t('inspector.needsConfirmation')}</span>}
                      {v.problems.map((_, i) => {
                        const said = verdictText(t, v.problems, v.phrases?.problems, i)
                        return (
                          <div key={i} data-testid="verdict-problem" lang={said.lang} className="ml-4">
                            {said.text}
                          </div>
                        )
                      })}
                      {v.coercions?.map((_, i, all) => {
                        const said = verdictText(t, all, v.phrases?.coercions, i)
                        return (
                          <div key={`c${i}`} data-testid="coercion" className="ml-4 text-amber-700">
                            {t('inspector.coerced')}: <span lang={said.lang}>{said.text}</span>
                          </div>
                        )
                      })}
                      {v.warnings?.map((_, i, all) => {
                        const said = verdictText(t, all, v.phrases?.warnings, i)
                        return (
                          <div key={`w${i}`} className="ml-4 text-amber-700">
                            {t('inspector.warning')}: <span lang={said.lang}>{said.text}</span>
                          </div>
                        )
                      })}
                    </li>
                    )
                  }}
                />
              </Section>
            )}
            {confirmRequested && (
              <Section title={t('inspector.confirm')} active={phase === 'confirm'}>
                {confirmDecided ? (
                  <ul className="text-xs">
                    {confirmDecided.decisions.map((d) => (
                      <li key={d.callId} data-testid="decision" data-decision={d.decision}>
                        <span className="font-mono">{d.callId}</span>: {d.decision === 'approve' ? t('inspector.approved') : d.decision === 'deny' ? t('inspector.denied') : <>{t('inspector.edited')} → <InlineArguments args={d.arguments} /></>}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-xs text-orange-800">{t('inspector.waiting', { count: confirmRequested.callIds.length })}</p>
                )}
              </Section>
            )}
            {finished.length > 0 && (
              <Section title={t('inspector.toolResults')} active={phase === 'execute'}>
                <ToolResults events={finished} />
                {!busy && (
                  // One button per call; 100 000 of them are windowed.
                  <WindowedList
                    className="mt-1 flex flex-wrap gap-2"
                    count={ownResults.length}
                    estimate={28}
                    render={(index) => {
                      const f = ownResults[index]!
                        const edited = resultEdit(f.seq)
                        return (
                          <button
                            key={f.seq}
                            data-testid="edit-result"
                            data-call-id={f.callId}
                            className="rounded border border-fuchsia-600 px-2 py-0.5 text-xs font-medium text-fuchsia-700 hover:bg-fuchsia-50"
                            title={t('editContinue.editResultHint')}
                            onClick={() =>
                              setEditing({ target: 'tool_result', seq: f.seq, name: f.name, initial: edited?.edited ?? f.error ?? f.result ?? '', initialError: edited ? edited.isError === true : f.error !== undefined })
                            }
                          >
                            {t('editContinue.editResult', { name: f.name })}
                          </button>
                        )
                    }}
                  />
                )}
                {openEdit?.target === 'tool_result' && <EditBox key={openEdit.seq} edit={openEdit} onClose={() => setEditing(null)} />}
              </Section>
            )}
            {edits.length > 0 && (
              <Section title={t('editContinue.section')} active={phase === 'edit'} testId="edits">
                <div className="flex flex-col gap-2">
                  {edits.map((e) => (
                    <EditApplied key={e.seq} edit={e} />
                  ))}
                </div>
              </Section>
            )}
            {backfilled && (
              <Section title={t('inspector.backfill')} active={phase === 'backfill'}>
                <MessageList messages={backfilled.messages} />
              </Section>
            )}
            {stopped && (
              <Section title={t('inspector.stopped')} active={phase === 'stop'}>
                <p className="text-sm">
                  {t('status.stopReason')} <span className="font-mono font-semibold">{stopped.reason}</span>
                  {stopped.detail ? (
                    <span data-testid="stop-detail" lang={stopped.phrase ? undefined : 'en'} className="text-slate-600">
                      {' '}
                      — {coreDetail(t, 'loop', { detail: stopped.detail, phrase: stopped.phrase })}
                    </span>
                  ) : null}
                </p>
                {state.finalAnswer !== null && <LongText as="p" testId="inspector-final-answer" text={state.finalAnswer} className="mt-1 whitespace-pre-wrap rounded bg-emerald-50 p-2 text-sm text-emerald-900" />}
              </Section>
            )}
          </>
        )}
      </div>
    </div>
  )
}

function ToolList({ tools }: { tools: readonly { name: string; description: string; inputSchema: unknown }[] }) {
  const { t } = useTranslation()
  return (
    <details className="rounded border border-slate-200 bg-white p-2 text-xs">
      <summary className="cursor-pointer font-semibold text-slate-600">{t('inspector.toolsOffered', { count: tools.length })}</summary>
      {tools.map((spec) => (
        <div key={spec.name} className="mt-1">
          <span className="font-mono font-semibold">{spec.name}</span> — <span data-content>{spec.description}</span>
          <pre className="whitespace-pre-wrap font-mono text-slate-600">{JSON.stringify(spec.inputSchema, null, 2)}</pre>
        </div>
      ))}
    </details>
  )
}
