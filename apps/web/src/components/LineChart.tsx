/**
 * A small SVG line chart, hand-rolled: the dashboard draws five series of at most 90 points, which
 * does not justify a chart library's weight. Scales to its container; the figures are also given
 * as a table for screen readers and keyboard users (the caller renders it).
 */
export interface Point {
  date: string;
  value: number;
}

const W = 600;
const H = 160;
const PAD = { top: 12, right: 12, bottom: 24, left: 40 };

export const LineChart = (props: {
  title: string;
  points: Point[];
  max?: number;
  format?: (n: number) => string;
}) => {
  const { points, title } = props;
  const format = props.format ?? ((n: number) => String(n));
  if (points.length === 0) return null;
  const top = Math.max(props.max ?? 0, ...points.map((p) => p.value), 1);
  const x = (i: number) =>
    PAD.left +
    (points.length === 1
      ? (W - PAD.left - PAD.right) / 2
      : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`)
    .join(" ");
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <figure className="chart">
      <figcaption>
        {title}
        {last ? <span className="chart-latest">{format(last.value)}</span> : null}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}, ${points.length} day${points.length === 1 ? "" : "s"}`}
      >
        <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} />
        <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(top)} y2={y(top)} />
        <text className="tick" x={PAD.left - 6} y={y(top) + 4} textAnchor="end">
          {format(top)}
        </text>
        <text className="tick" x={PAD.left - 6} y={y(0) + 4} textAnchor="end">
          0
        </text>
        <path className="line" d={path} />
        {points.map((p, i) => (
          <circle key={p.date} className="dot" cx={x(i)} cy={y(p.value)} r={points.length > 40 ? 1.5 : 3}>
            <title>{`${p.date}: ${format(p.value)}`}</title>
          </circle>
        ))}
        {first ? (
          <text className="tick" x={x(0)} y={H - 6} textAnchor="start">
            {first.date}
          </text>
        ) : null}
        {last && points.length > 1 ? (
          <text className="tick" x={x(points.length - 1)} y={H - 6} textAnchor="end">
            {last.date}
          </text>
        ) : null}
      </svg>
    </figure>
  );
};
