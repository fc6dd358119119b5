// The wording of did-you-mean suggestions and of the rename fixes that go with them
// (docs/reference/language.md §9.1), shared by the semantic, graph and reference rules.

/** Did-you-mean suggestion text (docs/reference/language.md §9.1). */
export function didYouMean(candidate: string): string {
  return `Did you mean '${candidate}'?`;
}

export function renameFix(from: string, to: string): string {
  return `Replace '${from}' with '${to}'`;
}
