// Editor services over a checked document: the language server's core.
export * from "./assist";
export * from "./navigation";
export type * from "./types";
