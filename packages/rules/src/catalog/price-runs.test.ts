import { describe, expect, it } from "vitest";
import { addObservation, currentPrices, type PriceRun } from "./price-runs.js";

const at = (day: number) => `2026-10-${String(day).padStart(2, "0")}T12:00:00.000Z`;
const price = (loose: string) => ({ loose, complete: null, new: null });
/** Observations applied in the order given. */
const seen = (...observations: Array<[number, string]>): PriceRun[] =>
  observations.reduce<PriceRun[]>((runs, [day, loose]) => addObservation(runs, at(day), price(loose)), []);
const shape = (runs: readonly PriceRun[]) =>
  runs.map((r) => `${r.observedAt.slice(8, 10)}-${r.lastObservedAt.slice(8, 10)}:${r.prices.loose}`);

describe("price runs", () => {
  it("keeps one row while the prices do not move, and a new one when they do", () => {
    const runs = seen([1, "10.00"], [2, "10.00"], [3, "10.00"], [4, "12.00"], [5, "12.00"]);
    expect(shape(runs)).toEqual(["01-03:10.00", "04-05:12.00"]);
    expect(currentPrices(runs)).toEqual(price("12.00"));
  });

  it("lets an older observation add to the past without touching the current prices", () => {
    const runs = seen([10, "12.00"], [3, "9.00"]);
    expect(shape(runs)).toEqual(["03-03:9.00", "10-10:12.00"]);
    expect(currentPrices(runs)).toEqual(price("12.00"));
  });

  it("does not forget that newer prices were seen again when an older change arrives later", () => {
    // 10 on the 1st and again on the 10th; a file of the 5th, loaded last, says 12.
    const runs = seen([1, "10.00"], [10, "10.00"], [5, "12.00"]);
    expect(shape(runs)).toEqual(["01-01:10.00", "05-05:12.00", "10-10:10.00"]);
    expect(currentPrices(runs)).toEqual(price("10.00"));
  });

  it("gives the same runs whatever order the files come in, and again when a file is loaded twice", () => {
    const observations: Array<[number, string]> = [
      [1, "10.00"],
      [4, "10.00"],
      [6, "11.00"],
      [9, "11.00"],
      [12, "10.00"],
    ];
    const inOrder = shape(seen(...observations));
    expect(inOrder).toEqual(["01-04:10.00", "06-09:11.00", "12-12:10.00"]);
    expect(shape(seen(...[...observations].reverse()))).toEqual(inOrder);
    expect(shape(seen(...observations, ...observations))).toEqual(inOrder);
  });

  it("merges runs that an observation joins, and replaces one made at the same instant", () => {
    expect(shape(seen([1, "10.00"], [5, "12.00"], [5, "10.00"]))).toEqual(["01-05:10.00"]);
    expect(shape(seen([1, "10.00"], [9, "10.00"], [1, "8.00"]))).toEqual(["01-01:8.00", "09-09:10.00"]);
  });

  it("has no current prices before any observation", () => {
    expect(currentPrices([])).toEqual({ loose: null, complete: null, new: null });
  });
});
