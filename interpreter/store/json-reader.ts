// Typed reading of kind-preserving JSON (PyValue trees from parseJson) for the flow file decoder:
// each reader checks one JSON kind and throws FormatError naming the path of the bad value, so a
// damaged file is refused with a precise reason instead of failing later inside the engine.
import { PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";

export class FormatError extends Error {
  constructor(
    /** Where the bad value is, e.g. `records[2].attempts`; "" for the whole document. */
    readonly path: string,
    readonly expected: string,
  ) {
    super(path === "" ? `expected ${expected}` : `${path}: expected ${expected}`);
    this.name = "FormatError";
  }
}

export type Reader<T> = (value: PyValue, path: string) => T;

/** The fields of a JSON object; absent keys read as a default (files from other versions lack some). */
export class Fields {
  private constructor(
    private readonly dict: PyDict,
    private readonly path: string,
  ) {}

  static of(value: PyValue, path: string): Fields {
    if (!(value instanceof PyDict)) throw new FormatError(path, "an object");
    return new Fields(value, path);
  }

  /** An object without keys: every field reads as its default. */
  static empty(path: string): Fields {
    return new Fields(new PyDict(), path);
  }

  /** `read` of the value under `key`, or `fallback()` when the key is absent. */
  get<T>(key: string, read: Reader<T>, fallback: () => T): T {
    const entry = this.dict.entries.get(key);
    return entry === undefined ? fallback() : read(entry[1], this.path === "" ? key : `${this.path}.${key}`);
  }
}

export const readString: Reader<string> = (v, path) => {
  if (typeof v !== "string") throw new FormatError(path, "a string");
  return v;
};

export const readBoolean: Reader<boolean> = (v, path) => {
  if (typeof v !== "boolean") throw new FormatError(path, "a boolean");
  return v;
};

/** A JSON integer within the safe range (counters, indexes, revisions). */
export const readInt: Reader<number> = (v, path) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new FormatError(path, "an integer");
  return v;
};

/** Any JSON number as a JS number (durations and times, which another writer may store as floats). */
export const readNumber: Reader<number> = (v, path) => {
  if (typeof v === "number") return v;
  if (v instanceof PyFloat && Number.isFinite(v.v)) return v.v;
  throw new FormatError(path, "a number");
};

/** Any JSON value, kept as it is (user data). */
export const readAny: Reader<PyValue> = (v) => v;

export function nullable<T>(read: Reader<T>): Reader<T | null> {
  return (v, path) => (v === null ? null : read(v, path));
}

export function oneOf<const T extends string>(values: readonly T[]): Reader<T> {
  return (v, path) => {
    if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
      throw new FormatError(path, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
    }
    return v as T;
  };
}

export function listOf<T>(read: Reader<T>): Reader<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) throw new FormatError(path, "an array");
    return (v as readonly PyValue[]).map((item, i) => read(item, `${path}[${i}]`));
  };
}

/** A JSON object keyed by user text (step ids, labels) as a Map, in file order. */
export function mapOf<T>(read: Reader<T>): Reader<Map<string, T>> {
  return (v, path) => {
    if (!(v instanceof PyDict)) throw new FormatError(path, "an object");
    const out = new Map<string, T>();
    for (const [key, value] of v.entries.values()) {
      // parseJson only produces string keys; the check keeps the type honest.
      if (typeof key !== "string") throw new FormatError(path, "an object with string keys");
      out.set(key, read(value, `${path}[${JSON.stringify(key)}]`));
    }
    return out;
  };
}

/** A JSON object kept as a PyDict (user data such as `inputs`). */
export const readDict: Reader<PyDict> = (v, path) => {
  if (!(v instanceof PyDict)) throw new FormatError(path, "an object");
  return v;
};
