// The standard library's public surface for the front ends, the fuzzer and host adapters: Python
// values, their types, and the file-access interface the core's file builtins use.
export type { FileAccess, FileStat, HostFileSystem } from "./files";
export { pythonExample } from "./regex/python-example";
export { typeOfValue } from "./types/of-value";
export type { Type } from "./types/type";
export { dictGetStr, makeDict } from "./values/dict";
export { PyError } from "./values/errors";
export { fromJsonValue, JsonSyntaxError, parseJson } from "./values/json";
export { makeNamespace } from "./values/namespace";
export { setOwnProperty } from "./values/own-property";
export { repr } from "./values/repr";
export { compareCodePoints } from "./values/strings";
export { truthy } from "./values/truth";
export { PyDict, PyFloat, type PyValue } from "./values/value";
