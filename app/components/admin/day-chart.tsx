/**
 * A day-by-day chart drawn on the server as SVG (bars for counts per day, their sum in the
 * legend; a line for a level such as the number of subscribers, its last value in the legend),
 * readable without JavaScript, with the same
 * figures in a table for screen readers (the drawing itself is hidden from them).
 */
export type DaySeries = { label: string; values: number[]; className: string };

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 10, right: 8, bottom: 22, left: 36 };

/** A round upper bound for the axis: 1, 2, 5 × 10^n. */
export function axisMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const shortDay = (day: string) => {
  const [, m, d] = day.split('-');
  return `${Number(m)}/${Number(d)}`;
};

export function DayChart({
  title,
  days,
  series,
  kind = 'bars',
}: {
  title: string;
  days: string[];
  series: DaySeries[];
  kind?: 'bars' | 'line';
}) {
  const max = axisMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, (slot * 0.8) / series.length);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelEvery = Math.ceil(days.length / 7);
  return (
    <figure className="space-y-2" data-testid="day-chart">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-sm font-medium">
        <span>{title}</span>
        <span className="flex gap-3 text-xs text-muted-foreground">
          {series.map((s) => (
            <span key={s.label} className="flex items-center gap-1">
              <svg aria-hidden="true" width="10" height="10" className={s.className}>
                <rect width="10" height="10" rx="2" fill="currentColor" />
              </svg>
              {`${s.label}: ${kind === 'line' ? (s.values.at(-1) ?? 0) : s.values.reduce((a, b) => a + b, 0)}`}
            </span>
          ))}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full text-muted-foreground"
        aria-hidden="true"
        focusable="false"
      >
        {[0, max / 2, max].map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(v)}
              y2={y(v)}
              stroke="currentColor"
              strokeOpacity={0.25}
            />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="currentColor">
              {v}
            </text>
          </g>
        ))}
        {series.map((s, si) =>
          kind === 'bars' ? (
            <g key={s.label} className={s.className} fill="currentColor">
              {s.values.map((v, i) =>
                v > 0 ? (
                  <rect
                    key={days[i]}
                    x={PAD.left + i * slot + slot * 0.1 + si * barW}
                    y={y(v)}
                    width={barW}
                    height={Math.max(1, PAD.top + plotH - y(v))}
                    rx={Math.min(2, barW / 2)}
                  />
                ) : null,
              )}
            </g>
          ) : (
            <polyline
              key={s.label}
              className={s.className}
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              points={s.values.map((v, i) => `${PAD.left + i * slot + slot / 2},${y(v)}`).join(' ')}
            />
          ),
        )}
        {days.map((day, i) =>
          i % labelEvery === 0 || i === days.length - 1 ? (
            <text
              key={day}
              x={PAD.left + i * slot + slot / 2}
              y={HEIGHT - 6}
              textAnchor="middle"
              fontSize="11"
              fill="currentColor"
            >
              {shortDay(day)}
            </text>
          ) : null,
        )}
      </svg>
      <table className="sr-only">
        <caption>{title}, day by day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {series.map((s) => (
              <th key={s.label} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, i) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {series.map((s) => (
                <td key={s.label}>{s.values[i]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
