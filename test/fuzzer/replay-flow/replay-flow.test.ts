// Replaying a recorded flow against edited versions of its spec: none diverges when the spec is
// unchanged, and each edit is reported as its kind of divergence at the edited spec's line.
import { describe, expect, it } from "vitest";
import { LineMap } from "../../../checker/index";
import { type FlowReplayReport, replayFlow, replayTarget } from "../../../fuzzer/index";
import { recordingOf } from "../../../fuzzer/replay-flow/recording";
import { edited, lineOf, recordedState, V1 } from "./record";

async function replay(spec: string, finish = true): Promise<FlowReplayReport> {
  const target = replayTarget(spec);
  if (target === null) throw new Error("the edited spec does not check");
  return replayFlow(target, await recordedState(finish));
}

function lineOfDivergence(spec: string, report: FlowReplayReport): number {
  const range = report.divergence?.range;
  if (range === undefined) throw new Error("no divergence");
  return new LineMap(spec).position(range.start).line;
}

describe("the recording of a stored flow", () => {
  it("lists every answer in order, over the rounds, with the results the store kept", async () => {
    const recording = recordingOf(await recordedState());
    expect(recording.entries.map((e) => `${e.kind}:${e.step}`)).toEqual([
      "step:build",
      "step:notes",
      "gate:sign_off",
      "step:build",
      "step:notes",
      "gate:sign_off",
      "step:deploy",
    ]);
    const first = recording.entries[0];
    expect(first?.kind === "step" && first.attempts).toBe(2);
    // The round-0 results were cleared by the revise: reconstructed from the latest outputs.
    expect(recording.reconstructed).toBe(2);
    expect(recording.status).toBe("complete");
  });
});

describe("replay against an edited spec", () => {
  it("finds no divergence against the spec the flow was recorded on", async () => {
    const report = await replay(V1);
    expect(report.divergence).toBeNull();
    expect(report.unjudged).toBeNull();
    expect(report.replayed).toBe(7);
  });

  it("finds none for a running flow either, and for an edit that changes nothing it meets", async () => {
    expect((await replay(V1, false)).divergence).toBeNull();
    const reworded = edited('intent: "Deploy the artifact"', 'intent: "Deploy the artifact to production"');
    expect((await replay(reworded)).divergence).toBeNull();
  });

  it("reports a tightened ensure as a result now rejected, at the ensure's line", async () => {
    const spec = edited('"result.size > 0"', '"result.size > 7"');
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("result_rejected");
    expect(report.divergence?.step).toBe("build");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "result.size > 7"));
    expect(report.divergence?.violations.join()).toContain("result.size > 7");
  });

  it("reports a reordered flow as a route now different, at the step dispatched instead", async () => {
    const spec = edited(
      `      - id: build
        function: build
      - id: notes
        intent: "Write the release notes"
        output_contract: Notes
        skip_if: "$.input.version == 'internal'"
`,
      `      - id: notes
        intent: "Write the release notes"
        output_contract: Notes
        skip_if: "$.input.version == 'internal'"
      - id: build
        function: build
`,
    );
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("route_changed");
    expect(report.divergence?.step).toBe("notes");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "- id: notes"));
  });

  it("reports a changed route field at that field", async () => {
    const spec = edited("on_revise: build", "on_revise: notes");
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("route_changed");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "on_revise: notes"));
  });

  it("reports a removed step", async () => {
    const spec = edited(
      `      - id: notes
        intent: "Write the release notes"
        output_contract: Notes
        skip_if: "$.input.version == 'internal'"
`,
      "",
    );
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("step_removed");
    expect(report.divergence?.step).toBe("notes");
    expect(report.divergence?.message).toContain("no longer exists");
    // Where the edited flow goes instead of the removed step.
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "- id: sign_off"));
  });

  it("reports a gate its policy now approves as a gate now missing", async () => {
    const spec = edited("on_revise: build", "on_revise: build\n        policy: flag");
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("gate_missing");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "- id: sign_off"));
  });

  it("reports a gate that is now an ordinary step as a gate now missing", async () => {
    const spec = edited(
      `      - id: sign_off
        function: sign_off
        on_approve: deploy
        on_revise: build
        on_kill: ~
`,
      `      - id: sign_off
        intent: "Sign off"
`,
    );
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("gate_missing");
    expect(report.divergence?.message).toContain("no longer a gate");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "- id: sign_off"));
  });

  it("reports a step whose skip_if now holds as skipped, at its skip_if", async () => {
    const spec = edited("$.input.version == 'internal'", "$.input.version != 'internal'");
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("step_skipped");
    expect(report.divergence?.step).toBe("notes");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "skip_if:"));
  });

  it("reports a step added after the recorded end as a route now different", async () => {
    const spec = `${V1}      - id: announce\n        intent: "Announce it"\n`;
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("route_changed");
    expect(report.divergence?.step).toBe("announce");
    expect(lineOfDivergence(spec, report)).toBe(lineOf(spec, "- id: announce"));
  });

  it("reports a flow the edited spec no longer has", async () => {
    const spec = edited("  release:\n", "  shipping:\n");
    const report = await replay(spec);
    expect(report.divergence?.kind).toBe("flow_refused");
  });
});
