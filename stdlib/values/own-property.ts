// Writing a key that came from data (JSON, spec text) onto a plain object: `object[key] = value`
// would take a `__proto__` key as the object's prototype instead of a field.

/** `object[key] = value` as an own data property, `__proto__` included (as JSON.parse makes it). */
export function setOwnProperty(
  object: Record<string | number, unknown>,
  key: string | number,
  value: unknown,
): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
