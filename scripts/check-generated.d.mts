// Types of scripts/check-generated.mjs for the TypeScript tests that import it.
export interface Generator {
  readonly script: string;
  readonly outputs: readonly string[];
}
export declare const GENERATORS: readonly Generator[];
export declare function pythonProblem(): string | null;
export declare function compareText(rel: string, committed: string, fresh: string): string | null;
export declare function compareOutputs(
  outputs: readonly string[],
  freshRoot: string,
  committedRoot?: string,
): string[];
export declare function checkGenerated(): Promise<string[]>;
