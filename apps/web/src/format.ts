/** 90061 → "1 d 1 h"; 75 → "1 min 15 s": a reset time a person can read. */
export const formatDuration = (seconds: number): string => {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = Math.floor(seconds % 60);
  if (d > 0) return `${d} d${h ? ` ${h} h` : ""}`;
  if (h > 0) return `${h} h${m ? ` ${m} min` : ""}`;
  if (m > 0) return `${m} min${s ? ` ${s} s` : ""}`;
  return `${s} s`;
};

const number = new Intl.NumberFormat("en-US");
export const formatCount = (n: number | null | undefined): string => (n == null ? "—" : number.format(n));

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** "1242.00" → "$1,242.00". */
export const formatPrice = (price: string | null | undefined): string =>
  price == null ? "—" : `$${money.format(Number(price))}`;

export const formatShare = (share: number): string => `${Math.round(share * 100)} %`;

/** A price change as a seller reads it: "+$10.00 (+7.1 %)", "−$1.00 (−8.3 %)", "no change". */
export const formatChange = (move: { change: string; change_ratio: number | null } | null): string => {
  if (move === null) return "—";
  const negative = move.change.startsWith("-");
  const amount = negative ? move.change.slice(1) : move.change;
  if (Number(amount) === 0) return "no change";
  const sign = negative ? "−" : "+";
  const ratio =
    move.change_ratio === null ? "" : ` (${sign}${Math.abs(move.change_ratio * 100).toFixed(1)} %)`;
  return `${sign}${formatPrice(amount)}${ratio}`;
};
