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

export const formatPrice = (price: string | null): string => (price === null ? "—" : `$${price}`);

export const formatShare = (share: number): string => `${Math.round(share * 100)} %`;
