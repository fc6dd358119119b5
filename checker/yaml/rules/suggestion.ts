// The suggestion every YAML-family error carries (docs/reference/language.md §9.5.1, the reference's wording).
export const YAML_SUGGESTION = "Check YAML syntax — indentation, colons, quoting.";
