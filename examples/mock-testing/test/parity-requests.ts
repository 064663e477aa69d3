/**
 * The requests whose answers are recorded from a real server (scripts/record-server.ts) and
 * replayed against the mocks loaded with the world exported from that server's database
 * (test/parity.test.ts). Each is pinned to the world's date, so the answer depends on the data only,
 * not on the day the test runs. `{game}` is the first game of the date's leaderboard.
 */
export const parityRequests = (date: string, game: number): string[] => [
  "/api/v1/consoles",
  `/api/v1/intelligence?period=7d&limit=5&date=${date}`,
  `/api/v1/intelligence?period=7d&sort=demand&limit=5&page=2&date=${date}`,
  `/api/v1/intelligence/${game}?period=7d&date=${date}`,
  `/api/v1/intelligence/${game}/conditions?period=7d&date=${date}`,
  `/api/v1/demand-intent/searches/trending?period=7d&limit=5&date=${date}`,
  `/api/v1/games/game/${game}`,
  // The errors a screen must show: an unknown game, a refused parameter.
  "/api/v1/games/game/999999999",
  `/api/v1/intelligence?period=fortnight&date=${date}`,
];

/** One recorded answer: what the test compares. */
export interface RecordedAnswer {
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

export interface Recording {
  /** The server the answers came from: the mocks answer on the same origin, so links compare as is. */
  origin: string;
  /** The recording key's plan (page cap): the mocks are given the same. */
  plan: string;
  date: string;
  answers: RecordedAnswer[];
}
