import { useState } from 'react'
import { diffTwoSessions, type SessionDiff } from '../../core/debug'
import { readSession } from '../../core/files'
import type { SessionEvent } from '../../core/loop'
import { importLog, replayEvents } from '../../core/trace'
import { useRun } from '../playground-context'

type Side = { name: string; events: SessionEvent[] } | { name: string; error: string } | null

/** A session file or the first conversation of a logged one, as events (as `toolstep diff` reads them). */
function readSide(name: string, text: string): Side {
  const log = importLog(text)
  if (!log.ok) return { name, error: log.error }
  if (log.format === 'toolstep-session') {
    const session = readSession(log.session ?? text)
    return session.ok ? { name, events: session.value.events } : { name, error: session.error }
  }
  const first = log.conversations[0]
  return first ? { name, events: replayEvents(first) } : { name, error: 'The log has no conversation.' }
}

function Picker({ id, side, onPick, onOpen }: { id: 'a' | 'b'; side: Side; onPick(side: Side): void; onOpen?: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="font-medium">{id.toUpperCase()}:</span>
      <input
        type="file"
        accept=".json,.jsonl,application/json"
        data-testid={`compare-file-${id}`}
        className="text-xs"
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) void file.text().then((text) => onPick(readSide(file.name, text)))
        }}
      />
      {onOpen && (
        <button className="rounded border border-slate-300 px-1.5 text-xs" onClick={onOpen}>
          use the open session
        </button>
      )}
      {side && ('error' in side ? <span className="text-xs text-red-700">{side.name}: {side.error}</span> : <span className="text-xs text-slate-600">{side.name} ({side.events.length} events)</span>)}
    </div>
  )
}

/** Diff of any two sessions: session files, logged conversations or the open session, turn by turn. */
export function CompareView() {
  const open = useRun((s) => s.events)
  const [a, setA] = useState<Side>(null)
  const [b, setB] = useState<Side>(null)
  const diff: SessionDiff | null = a && b && 'events' in a && 'events' in b ? diffTwoSessions(a.events, b.events) : null
  return (
    <div className="flex flex-col gap-2 p-3 text-sm">
      <Picker id="a" side={a} onPick={setA} onOpen={open.length > 0 ? () => setA({ name: 'open session', events: open }) : undefined} />
      <Picker id="b" side={b} onPick={setB} onOpen={open.length > 0 ? () => setB({ name: 'open session', events: open }) : undefined} />
      {diff && (
        <>
          <p data-testid="compare-summary" className={diff.same ? 'text-emerald-700' : 'text-red-800'}>
            {diff.firstDifference ? `They differ: first at turn ${diff.firstDifference.turn} (${diff.firstDifference.aspect}); ${diff.rows.filter((r) => !r.same).length} of ${diff.rows.length} rows.` : 'The sessions agree.'}
          </p>
          <table className="w-full border-collapse text-xs">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="pr-2">Turn</th>
                <th className="pr-2">Aspect</th>
                <th className="pr-2">A</th>
                <th>B</th>
              </tr>
            </thead>
            <tbody>
              {diff.rows.map((row, i) => (
                <tr key={i} data-testid="compare-row" data-same={String(row.same)} className={`border-t border-slate-200 align-top ${row.same ? 'text-slate-500' : 'bg-red-50'}`}>
                  <td className="pr-2">{row.aspect === 'stop' ? 'end' : row.turn}</td>
                  <td className="pr-2 font-mono">{row.aspect}</td>
                  <td className="whitespace-pre-wrap pr-2 font-mono">{row.a ?? '—'}</td>
                  <td className="whitespace-pre-wrap font-mono">{row.b ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  )
}
