/**
 * A small SVG line chart, hand-rolled: the dashboard draws a few series of at most 90 days, which
 * does not justify a chart library's weight. The plot stretches to its box; the axis labels are
 * HTML beside it, so they keep the page's font size at any width (text inside a scaled SVG shrank
 * to 6 px on a phone). The figures are also given as a table for screen readers and keyboard users
 * (the caller renders it).
 */
export interface Series {
  name: string;
  /** One value per date; null is a gap (no price that day). */
  points: ReadonlyArray<{ date: string; value: number | null }>;
}

const W = 600;
const H = 150;
const PAD = 6;
const DAY_MS = 86_400_000;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export const LineChart = (props: {
  title: string;
  series: readonly Series[];
  max?: number;
  format?: (n: number) => string;
  /** Prices hold until they change: drawn as steps, without a dot per day. */
  step?: boolean;
}) => {
  const { title, series } = props;
  const format = props.format ?? ((n: number) => String(n));
  const dates = [...new Set(series.flatMap((s) => s.points.map((p) => p.date)))].sort();
  const first = dates[0];
  const last = dates.at(-1);
  if (first === undefined || last === undefined) return null;
  const values = series.flatMap((s) => s.points.flatMap((p) => (p.value === null ? [] : [p.value])));
  const top = Math.max(props.max ?? 0, ...values, 1);
  const span = dayNumber(last) - dayNumber(first);
  const x = (date: string) => (span === 0 ? W / 2 : ((dayNumber(date) - dayNumber(first)) * W) / span);
  const y = (v: number) => PAD + (1 - v / top) * (H - 2 * PAD);
  const latest = series.length === 1 ? series[0]?.points.at(-1)?.value : undefined;
  const days = dates.length;
  return (
    <figure className="chart">
      <figcaption>
        {title}
        {latest != null ? <span className="chart-latest">{format(latest)}</span> : null}
      </figcaption>
      {series.length > 1 ? (
        <ul className="chart-legend">
          {series.map((s, i) => (
            <li key={s.name}>
              <span className="swatch" data-series={i} aria-hidden="true" /> {s.name}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="plot">
        <div className="y-axis" aria-hidden="true">
          <span>{format(top)}</span>
          <span>{format(0)}</span>
        </div>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${title}, ${days} day${days === 1 ? "" : "s"}`}
        >
          <line className="grid" x1={0} x2={W} y1={y(top)} y2={y(top)} />
          <line className="axis" x1={0} x2={W} y1={y(0)} y2={y(0)} />
          {series.map((s, i) => (
            <g key={s.name} data-series={i}>
              <path className="line" d={pathOf(s.points, x, y, props.step === true)} />
              {props.step
                ? null
                : s.points.map((p) =>
                    p.value === null ? null : (
                      // A zero-length line with round caps: a dot that stays round when the plot stretches.
                      <path key={p.date} className="dot" d={`M${x(p.date)},${y(p.value)}h0`}>
                        <title>{`${p.date}: ${format(p.value)}`}</title>
                      </path>
                    ),
                  )}
            </g>
          ))}
        </svg>
        <div className="x-axis" aria-hidden="true">
          <span>{first}</span>
          {days > 1 ? <span>{last}</span> : null}
        </div>
      </div>
    </figure>
  );
};

/** The line through the points; a null ends it, the next value starts another. */
const pathOf = (
  points: Series["points"],
  x: (date: string) => number,
  y: (v: number) => number,
  step: boolean,
): string => {
  let d = "";
  let drawing = false;
  for (const p of points) {
    if (p.value === null) {
      drawing = false;
      continue;
    }
    const px = x(p.date).toFixed(1);
    const py = y(p.value).toFixed(1);
    d += !drawing ? `M${px},${py}` : step ? `H${px}V${py}` : `L${px},${py}`;
    drawing = true;
  }
  return d;
};
