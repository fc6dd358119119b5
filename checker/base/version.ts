// The format versions a spec may declare; the schema, the model and the editor services all branch
// on it, so it lives in the checker's base rather than in any one of them.

export type Version = "0.1" | "0.2" | "0.3";
