import { ApiError } from "../errors.js";

/**
 * The answer of analytics routes until their issue lands: a clean 503 (retryable, as the spec's
 * 5xx guidance says) rather than 501, because the endpoints exist and only their data is missing.
 */
export const notComputedYet = async (): Promise<never> => {
  throw new ApiError("service_unavailable", "analytics not computed yet");
};
