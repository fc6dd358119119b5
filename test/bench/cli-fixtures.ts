// What the start-up tests share: the repository's paths and a spec with errors
// of several kinds, so every output format has something to print.
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../..");
export const TYPICAL = join(REPO, "bench/fixtures/typical.stratum.yaml");

export const BROKEN = `version: "0.2"
contracts:
  Out: {score: {type: number}}
functions:
  work: {mode: infer, intent: "Work", input: {}, output: Out, ensure: ["result.scroe > 0.5"]}
flows:
  main:
    input: {}
    steps:
      - {id: a, function: work, inputs: {x: "$.steps.nope.output"}}
      - {id: a, function: work}
`;
