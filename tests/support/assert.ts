/**
 * The assertions of @std/assert (unreachable here: JSR is blocked) built on node:assert, so the swap back is
 * this one file.
 */
import nodeAssert from "node:assert/strict";

/** Asserts that `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Asserts deep equality of `actual` and `expected`. */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** Asserts that `actual` contains `expected`. */
export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  nodeAssert.ok(
    actual.includes(expected),
    message ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
  );
}

/** Asserts that `actual` matches `pattern`. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  nodeAssert.match(actual, pattern, message);
}

// deno-lint-ignore no-explicit-any
type ErrorClass<E extends Error> = new (...args: any[]) => E;

/** Asserts that `fn` throws an error of class `ErrorType` whose message includes `includes`; returns it. */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  ErrorType: ErrorClass<E> = Error as unknown as ErrorClass<E>,
  includes?: string,
): E {
  try {
    fn();
  } catch (error) {
    return checkError(error, ErrorType, includes);
  }
  throw new nodeAssert.AssertionError({ message: "Expected function to throw." });
}

/** Asserts that `fn` rejects with an error of class `ErrorType` whose message includes `includes`; returns it. */
export async function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  ErrorType: ErrorClass<E> = Error as unknown as ErrorClass<E>,
  includes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    return checkError(error, ErrorType, includes);
  }
  throw new nodeAssert.AssertionError({ message: "Expected promise to reject." });
}

function checkError<E extends Error>(error: unknown, ErrorType: ErrorClass<E>, includes?: string): E {
  nodeAssert.ok(error instanceof ErrorType, `expected ${ErrorType.name}, got ${String(error)}`);
  if (includes !== undefined) assertStringIncludes(error.message, includes);
  return error;
}

/**
 * Asserts that `error` has every property of `expected` (an object, or an Error whose name, message and own
 * fields count): a RegExp value must match, any other must be equal. Returns the error.
 */
export function assertErrorLike(error: unknown, expected: Record<string, unknown> | Error): Error {
  nodeAssert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
  const fields: Record<string, unknown> = expected instanceof Error
    ? { ...expected, name: expected.name, message: expected.message }
    : expected;
  const got = error as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    const actual: unknown = got[key];
    if (value instanceof RegExp) nodeAssert.match(String(actual), value, key);
    else nodeAssert.deepStrictEqual(actual, value, key);
  }
  return error;
}

/** Asserts that `actual` and `expected` are the same value (`===`, or both NaN). */
export function assertStrictEquals<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  nodeAssert.strictEqual(actual, expected, message);
}

/** Asserts that `actual` and `expected` are not the same value. */
export function assertNotStrictEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.notStrictEqual(actual, expected, message);
}

/** Fails the test with `message`. */
export function fail(message?: string): never {
  throw new nodeAssert.AssertionError({ message: message ?? "Failed assertion." });
}

/** Asserts that `actual` does not match `pattern`. */
export function assertNotMatch(actual: string, pattern: RegExp, message?: string): void {
  nodeAssert.doesNotMatch(actual, pattern, message);
}
