// Editor services over a checked document (issue 6): the language server's core.
export * from "./assist";
export * from "./navigation";
export type * from "./types";
