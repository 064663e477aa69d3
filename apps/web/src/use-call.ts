import type { GmiClient } from "@gmi/sdk";
import { useCallback, useEffect, useState } from "react";
import { useApi } from "./api.js";

export type CallState<T> =
  | { status: "loading"; data: undefined; error: undefined }
  | { status: "ok"; data: T; error: undefined }
  | { status: "error"; data: undefined; error: unknown };

/**
 * One API read for a component: loading, then the data or the error; `retry` runs it again. A
 * newer call (deps changed) wins over a slower older one, so a fast filter change never shows stale
 * rows.
 */
export const useCall = <T>(load: (client: GmiClient) => PromiseLike<T>, deps: readonly unknown[]) => {
  const { client } = useApi();
  const [state, setState] = useState<CallState<T>>({ status: "loading", data: undefined, error: undefined });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's inputs of `load`
  useEffect(() => {
    let current = true;
    setState({ status: "loading", data: undefined, error: undefined });
    Promise.resolve(load(client)).then(
      (data) => current && setState({ status: "ok", data, error: undefined }),
      (error: unknown) => current && setState({ status: "error", data: undefined, error }),
    );
    return () => {
      current = false;
    };
  }, [client, attempt, ...deps]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
};
