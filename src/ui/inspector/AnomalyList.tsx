import { useTranslation } from 'react-i18next'
import { describeAnomaly } from '../../core/catalogue'
import { AnomalyCodeLink, anomalyDetail, anomalyExplanation, anomalyTitle, type AnomalyText } from '../anomalies/AnomalyCatalogue'

/** One anomaly found in the current turn, with the event that shows it. */
export interface LocatedFlag extends AnomalyText {
  seq: number
}

/** The turn's anomalies: code (linking to the catalogue), title, what was found, and why it matters. */
export function AnomalyList({ anomalies }: { anomalies: readonly LocatedFlag[] }) {
  const { t } = useTranslation()
  return (
    <ul className="flex flex-col gap-1 text-xs">
      {anomalies.map((anomaly, index) => {
        const entry = describeAnomaly(anomaly.code)
        return (
          <li key={index} data-testid="anomaly-detail" data-code={anomaly.code} className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-800">
            <div className="flex flex-wrap items-baseline gap-x-2">
              <AnomalyCodeLink code={anomaly.code} />
              {entry && <span className="font-medium text-red-900">{anomalyTitle(t, anomaly.code)}</span>}
              <span className="ml-auto text-red-500">{t('anomalyCatalogue.event', { seq: anomaly.seq })}</span>
            </div>
            <p lang={anomaly.phrase ? undefined : 'en'} className="mt-0.5 [overflow-wrap:anywhere]">
              {anomalyDetail(t, anomaly)}
            </p>
            {entry && (
              <p data-testid="anomaly-explanation" className="mt-0.5 text-red-700/80">
                {anomalyExplanation(t, anomaly.code)}
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
