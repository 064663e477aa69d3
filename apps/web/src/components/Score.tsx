import { BAND_LABELS, bandOf, type ScoreBand, type ScoreScale } from "../score-scale.js";

/** A liquidity score, coloured by where it stands in its scope (plain until the scale is known). */
export const Score = ({ value, scale }: { value: number; scale: ScoreScale | null | undefined }) => {
  const band = scale ? bandOf(scale, value) : undefined;
  return (
    <span
      className="score"
      data-band={band}
      title={band ? `Score ${value}: ${BAND_LABELS[band]}` : undefined}
    >
      {value}
    </span>
  );
};

/** What the colours mean, and among how many games. */
export const ScoreLegend = ({ scale, scope }: { scale: ScoreScale | null | undefined; scope: string }) =>
  scale ? (
    <p className="legend">
      Score colours, among the {scale.total.toLocaleString("en-US")} games with demand {scope}:{" "}
      {(Object.keys(BAND_LABELS) as ScoreBand[]).map((band) => (
        <span key={band} className="legend-item">
          <span className="swatch" data-band={band} aria-hidden="true" /> {BAND_LABELS[band]}
        </span>
      ))}
    </p>
  ) : null;
