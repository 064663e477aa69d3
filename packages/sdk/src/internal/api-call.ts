import type { RateLimit } from "./headers.js";
import { type Answer, rateLimitOf, requestIdOf } from "./transport.js";

/** What one HTTP answer said besides its body. */
export interface ApiResponse {
  /** The HTTP status: 200, or 207 for a batch whose items had mixed outcomes. */
  readonly status: number;
  /** Every header of the answer. */
  readonly headers: Headers;
  /** `X-Request-Id`: quote it to support. */
  readonly requestId: string | undefined;
  /**
   * The rate-limit window as this answer reported it (`X-RateLimit-*`): the state after this very
   * request, whatever other calls of the client did meanwhile.
   */
  readonly rateLimit: RateLimit | undefined;
  /** Requests made to get this answer: 1, or more after retries. */
  readonly attempts: number;
  /** The `Idempotency-Key` sent, on batch requests. */
  readonly idempotencyKey: string | undefined;
}

/** A call's result with the answer it came in: what `withResponse()` resolves to. */
export interface WithResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** The HTTP answer it came from. */
  response: ApiResponse;
}

/** An answer's headers are read when asked for: most callers never look. */
class AnswerResponse implements ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly attempts: number;
  readonly idempotencyKey: string | undefined;
  readonly #answer: Answer<unknown>;

  constructor(answer: Answer<unknown>) {
    this.status = answer.status;
    this.headers = answer.headers;
    this.attempts = answer.attempts;
    this.idempotencyKey = answer.idempotencyKey;
    this.#answer = answer;
  }

  get requestId(): string | undefined {
    return requestIdOf(this.#answer);
  }

  get rateLimit(): RateLimit | undefined {
    return rateLimitOf(this.#answer);
  }
}

export const responseOf = (answer: Answer<unknown>): ApiResponse => new AnswerResponse(answer);

export const withResponseOf = <T>(answer: Answer<T>): WithResponse<T> => ({
  data: answer.body,
  response: responseOf(answer),
});

/**
 * What a single call returns: a promise of its result (the response body, or a batch's merged
 * result) that also offers `withResponse()`, the result with the HTTP answer it came in. The request
 * is sent at once, like any promise's work; both ways of reading share it.
 */
export class ApiCall<T, R extends { data: T } = WithResponse<T>> implements Promise<T> {
  /** `[object ApiCall]`, as a promise is `[object Promise]`. */
  readonly [Symbol.toStringTag] = "ApiCall";
  private readonly result: Promise<R>;

  /** @internal */
  constructor(result: Promise<R>) {
    this.result = result;
  }

  /** The result together with the answer it came in: status, headers, request id, rate-limit state. */
  withResponse(): Promise<R> {
    return this.result;
  }

  // biome-ignore lint/suspicious/noThenProperty: a promise of the result, with withResponse() beside it
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result.then(
      (withResponse) => (onFulfilled ? onFulfilled(withResponse.data) : (withResponse.data as unknown as A)),
      onRejected,
    );
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }
}
