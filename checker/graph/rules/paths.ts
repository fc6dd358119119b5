// Dotted paths of the SPEC family (docs/reference/language.md §9.1): entities named by id, not by index.

export function flowPath(flow: string): string {
  return `flows.${flow}`;
}

export function stepPath(flow: string, step: string): string {
  return `flows.${flow}.steps.${step}`;
}
