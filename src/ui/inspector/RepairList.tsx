import { useTranslation } from 'react-i18next'
import type { Repair } from '../../core/protocols'
import { coreSaid } from '../i18n/core-text'

/** Repairs grouped by code (`fence_stripped ×4`), so a turn with many calls stays readable. */
export function RepairList({ repairs }: { repairs: readonly Repair[] }) {
  const { t } = useTranslation()
  const groups = new Map<string, { repair: Repair; count: number }>()
  for (const r of repairs) {
    const group = groups.get(r.code)
    if (group) group.count += 1
    else groups.set(r.code, { repair: r, count: 1 })
  }
  return (
    <>
      {[...groups].map(([code, { repair, count }]) => {
        const said = coreSaid(t, 'parse', repair)
        return (
          <p key={code} data-testid="repair" className="rounded bg-amber-50 px-1.5 py-0.5 text-amber-800">
            {t('inspectorParts.repaired')} <span className="font-mono">{code}</span>
            {count > 1 ? ` ×${count}` : ''}: <span lang={said.lang}>{said.text}</span>
          </p>
        )
      })}
    </>
  )
}
