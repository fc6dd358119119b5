// Types of scripts/gen-docs.mjs for the TypeScript tests that import it.
export declare const MARKED_PAGES: readonly string[];
export declare const GENERATED_PAGES: readonly string[];
export declare function fillMarkers(
  text: string,
  counts: Readonly<Record<string, number>>,
  page?: string,
): string;
