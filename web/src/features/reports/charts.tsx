// Two small hand-drawn charts (no chart library: a few kilobytes instead of a hundred): a line
// chart of daily series in SVG, and horizontal bars in HTML. Both carry their figures as text for
// screen readers (a table, or the labels themselves).
import { type PointerEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { t } from '../../i18n/t';
import { count, shortDate } from './format';

export interface Series {
  key: string;
  label: string;
  /** A CSS colour: a token, so that dark mode follows. */
  color: string;
  values: readonly number[];
}

function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Round numbers for the y axis: 0 and up to 4 steps of 1, 2 or 5 × 10^n covering `max`. */
export function niceTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? rough;
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) {
    ticks.push(Math.round(value));
    if (value >= max) break;
  }
  return ticks;
}

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 40 };

export function LineChart({ dates, series, label }: { dates: readonly string[]; series: readonly Series[]; label: string }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const innerW = Math.max(0, width - PAD.left - PAD.right);
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (dates.length <= 1 ? innerW / 2 : (i / (dates.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  // Enough date labels to read, never crowded: about one per 90 pixels.
  const every = Math.max(1, Math.ceil(dates.length / Math.max(1, Math.floor(innerW / 90))));
  const multiYear = dates.length > 0 && dates[0]?.slice(0, 4) !== dates[dates.length - 1]?.slice(0, 4);

  const onMove = (event: PointerEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const ratio = (event.clientX - box.left) / Math.max(1, box.width);
    setHover(Math.min(dates.length - 1, Math.max(0, Math.round(ratio * (dates.length - 1)))));
  };
  const hovered = hover === null ? null : dates[hover];

  return (
    <figure className="chart">
      <div className="chart__legend" aria-hidden>
        {series.map((s) => (
          <span key={s.key} className="chart__key">
            <span className="chart__swatch" style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
      </div>
      <div className="chart__plot" ref={ref}>
        {width > 0 ? (
          <svg width={width} height={HEIGHT} role="img" aria-label={label}>
            {ticks.map((tick) => (
              <g key={tick}>
                <line x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} className="chart__grid" />
                <text x={PAD.left - 6} y={y(tick)} className="chart__tick" textAnchor="end" dominantBaseline="middle">
                  {count(tick)}
                </text>
              </g>
            ))}
            {dates.map((date, i) =>
              (i % every === 0 && dates.length - 1 - i >= every) || i === dates.length - 1 ? (
                <text
                  key={date}
                  x={x(i)}
                  y={HEIGHT - 8}
                  className="chart__tick"
                  textAnchor={i === 0 ? 'start' : i === dates.length - 1 ? 'end' : 'middle'}
                >
                  {shortDate(date, multiYear)}
                </text>
              ) : null,
            )}
            {series.map((s) => (
              <g key={s.key}>
                <polyline
                  fill="none"
                  stroke={s.color}
                  strokeWidth={2}
                  strokeLinejoin="round"
                  points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
                />
                {dates.length <= 45 ? s.values.map((v, i) => <circle key={dates[i]} cx={x(i)} cy={y(v)} r={2.5} fill={s.color} />) : null}
              </g>
            ))}
            {hover !== null ? <line x1={x(hover)} x2={x(hover)} y1={PAD.top} y2={PAD.top + innerH} className="chart__cursor" /> : null}
            <rect
              x={PAD.left}
              y={PAD.top}
              width={innerW}
              height={innerH}
              fill="transparent"
              onPointerMove={onMove}
              onPointerLeave={() => setHover(null)}
            />
          </svg>
        ) : null}
        {hovered !== null && hover !== null && hovered !== undefined ? (
          <div className="chart__tooltip" style={{ left: Math.min(Math.max(x(hover), 70), width - 70) }} aria-hidden>
            <strong>{shortDate(hovered, true)}</strong>
            {series.map((s) => (
              <span key={s.key}>
                {s.label}: {count(s.values[hover] ?? 0)}
              </span>
            ))}
          </div>
        ) : null}
      </div>
      <details className="chart__data">
        <summary>{t('reports.showTable')}</summary>
        <div className="table-scroll">
          <table className="ui-table">
            <caption className="visually-hidden">{label}</caption>
            <thead>
              <tr>
                <th scope="col">{t('reports.date')}</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="cell-number">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dates.map((date, i) => (
                <tr key={date}>
                  <th scope="row">{shortDate(date, true)}</th>
                  {series.map((s) => (
                    <td key={s.key} className="cell-number">
                      {count(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** Written after the value, e.g. a share. */
  note?: string;
}

/** Horizontal bars, longest = the largest value; the numbers are written beside them. */
export function BarList({ bars, label, color = 'var(--color-accent)' }: { bars: readonly Bar[]; label: string; color?: string }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <ul className="bars" aria-label={label}>
      {bars.map((bar) => (
        <li key={bar.key} className="bars__row">
          <span className="bars__label">{bar.label}</span>
          <span className="bars__track" aria-hidden>
            {bar.value > 0 ? <span className="bars__fill" style={{ width: `${(bar.value / max) * 100}%`, background: color }} /> : null}
          </span>
          <span className="bars__value">
            {count(bar.value)}
            {bar.note ? <span className="bars__note"> {bar.note}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Met against breached as one split bar, with both numbers. */
export function SplitBar({ met, breached, label }: { met: number; breached: number; label: string }) {
  const total = met + breached;
  return (
    <div className="split" role="img" aria-label={label}>
      {total === 0 ? (
        <span className="split__empty" />
      ) : (
        <>
          <span className="split__met" style={{ flexGrow: met }} />
          <span className="split__breached" style={{ flexGrow: breached }} />
        </>
      )}
    </div>
  );
}
