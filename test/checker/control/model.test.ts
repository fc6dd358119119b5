// The control model on small flows: each runtime fact it encodes (interpreter/flow/: dispatch,
// routing, gates, policy, sub-flows) and the verdicts it gives.
import { describe, expect, it } from "vitest";
import { controlDiagnostics, specOf, summary, verdict } from "./support";

const ENSURE = "ensure: [result.ok]";

describe("routes after a result", () => {
  it("next replaces the fall-through: the step after it is dead", () => {
    const v = verdict(
      specOf([["f", ["{id: a, intent: x, next: c}", "{id: b, intent: x}", "{id: c, intent: x}"]]]),
    );
    expect(summary(v)).toMatchObject({
      completes: true,
      optionToComplete: true,
      dead: ["b:route-never-taken"],
    });
    const reason = v.deadSteps[0]?.reason;
    expect(reason).toMatchObject({ via: "a", route: "fall-through", at: { step: "a", key: "next" } });
  });

  it("a step with a skip_if that may hold falls through when skipped", () => {
    const text = specOf([
      [
        "f",
        ['{id: a, intent: x, next: c, skip_if: "$.input.q"}', "{id: b, intent: x}", "{id: c, intent: x}"],
      ],
    ]).replace("\n    input: {}", "\n    input: {q: {type: boolean}}");
    expect(summary(verdict(text)).dead).toEqual([]);
  });

  it("a failing step without on_fail exhausts: a declared end, not a loss of completion", () => {
    const v = verdict(specOf([["f", [`{id: a, intent: x, ${ENSURE}}`, "{id: b, intent: x}"]]]));
    expect(summary(v)).toMatchObject({ completes: true, optionToComplete: true, dead: [], traps: [] });
  });

  it("on_fail back to an earlier step is a loop with an exit", () => {
    const v = verdict(
      specOf([["f", ["{id: fix, intent: x}", `{id: review, intent: x, ${ENSURE}, on_fail: fix}`]]]),
    );
    expect(summary(v)).toMatchObject({ completes: true, optionToComplete: true, traps: [] });
  });
});

describe("loops", () => {
  it("a fix that always goes back to its review: no run completes, the loop is closed by fix's next", () => {
    const text = specOf([
      ["f", [`{id: review, intent: x, ${ENSURE}}`, "{id: fix, intent: x, next: review}"]],
    ]);
    expect(summary(verdict(text))).toMatchObject({
      completes: false,
      optionToComplete: false,
      traps: ["review+fix@fix.next"],
    });
    const [d] = controlDiagnostics(text);
    expect(d).toMatchObject({ code: "SPEC-FLOW-NEVER-COMPLETES", severity: "warning", line: 12 });
    expect(d?.message).toContain("step 'fix' goes back to 'review' by next: 'review'");
    expect(d?.related?.map((r) => r.message)).toEqual([
      "step 'review' is part of the loop",
      "step 'fix' is part of the loop",
    ]);
  });

  it("the same loop without checks loops forever: still no completion, and no end at all", () => {
    const v = verdict(specOf([["f", ["{id: review, intent: x}", "{id: fix, intent: x, next: review}"]]]));
    expect(summary(v)).toMatchObject({ completes: false, traps: ["review+fix@fix.next"] });
    expect(v.ends).toBe(false);
  });

  it("a loop some runs enter: completion stays possible from the start, not from inside", () => {
    const text = specOf([
      [
        "f",
        [
          `{id: check, intent: x, ${ENSURE}, on_fail: fix}`,
          "{id: done, intent: x, next: z}",
          "{id: fix, intent: x, next: again}",
          "{id: again, intent: x, next: fix}",
          "{id: z, intent: x}",
        ],
      ],
    ]);
    expect(summary(verdict(text))).toMatchObject({
      completes: true,
      optionToComplete: false,
      traps: ["fix+again@again.next"],
    });
    expect(controlDiagnostics(text).map((d) => [d.code, d.severity, d.line])).toEqual([
      ["SPEC-FLOW-TRAP", "warning", 14],
    ]);
  });
});

describe("gates", () => {
  const GATE = "{id: g, function: review, on_approve: null, on_revise: a, on_kill: null}";

  it("approve with on_approve null completes; revise without max_rounds is unbounded", () => {
    const v = verdict(specOf([["f", ["{id: a, intent: x}", GATE]]]));
    expect(summary(v)).toMatchObject({ completes: true, optionToComplete: true, revise: ["g"] });
    expect(controlDiagnostics(specOf([["f", ["{id: a, intent: x}", GATE]]])).map((d) => d.code)).toEqual([
      "SPEC-REVISE-UNBOUNDED",
    ]);
  });

  it("max_rounds bounds the revise loop: no note, and revise rounds are states", () => {
    const v = verdict(specOf([["f", ["{id: a, intent: x}", GATE], "max_rounds: 2"]]));
    expect(summary(v)).toMatchObject({ completes: true, revise: [] });
    expect(v.states).toBe(6); // a and g in rounds 0, 1 and 2
  });

  it("an approve that only goes back: runs end when a human kills, never complete", () => {
    const text = specOf([
      [
        "f",
        ["{id: a, intent: x}", "{id: g, function: review, on_approve: a, on_revise: a, on_kill: null}"],
        "max_rounds: 1",
      ],
    ]);
    expect(summary(verdict(text))).toMatchObject({ completes: false, traps: ["a+g@g.on_approve"] });
  });

  it("a gate with policy flag is approved by the policy loop: its kill route is dead", () => {
    const v = verdict(
      specOf([
        [
          "f",
          [
            "{id: a, intent: x}",
            "{id: g, function: review, policy: flag, on_approve: z, on_revise: a, on_kill: k}",
            "{id: k, intent: x, next: z}",
            "{id: z, intent: x}",
          ],
        ],
      ]),
    );
    expect(v.deadSteps).toMatchObject([
      { step: "k", reason: { kind: "route-never-taken", at: { step: "g", key: "policy" } } },
    ]);
    expect(v.unboundedRevise).toEqual([]);
  });

  it("a policy gate that routes back is approved on every pass: no run completes", () => {
    // a passes, g is approved by its policy and routes to a: every call ends at a again (the policy
    // loop would stop only at a gate it has already approved in the same call).
    const v = verdict(
      specOf([
        [
          "f",
          [
            "{id: a, intent: x}",
            "{id: g, function: review, policy: skip, on_approve: a, on_revise: a, on_kill: null}",
          ],
        ],
      ]),
    );
    expect(summary(v)).toMatchObject({ completes: false, traps: ["a+g@g.on_approve"] });
  });

  it("a gate whose skip_if is always true is approved without a human, but waits when reached twice in one dispatch", () => {
    const once = verdict(
      specOf([
        [
          "f",
          [
            "{id: a, intent: x}",
            "{id: g, function: review, skip_if: 'True', on_approve: null, on_revise: a, on_kill: null}",
          ],
        ],
      ]),
    );
    expect(summary(once)).toMatchObject({ dead: ["g:always-skipped"], revise: [] });
    const twice = verdict(
      specOf([
        [
          "f",
          [
            "{id: a, intent: x, skip_if: 'True'}",
            "{id: g, function: review, skip_if: 'True', on_approve: a, on_revise: a, on_kill: null}",
          ],
          "max_rounds: 1",
        ],
      ]),
    );
    // a is skipped, g auto-approved back to a, a skipped again, g reached a second time: it waits.
    expect(summary(twice)).toMatchObject({ dead: ["a:always-skipped"], completes: false });
  });
});

describe("skip_if", () => {
  it("a constant true skip_if: the step never runs (SPEC-STEP-ALWAYS-SKIPPED at the skip_if)", () => {
    const text = specOf([["f", ["{id: a, intent: x, skip_if: 'not False'}", "{id: b, intent: x}"]]]);
    expect(summary(verdict(text)).dead).toEqual(["a:always-skipped"]);
    expect(controlDiagnostics(text).map((d) => [d.code, d.line, d.column])).toEqual([
      ["SPEC-STEP-ALWAYS-SKIPPED", 11, 37],
    ]);
  });

  it("a constant false skip_if: the step is never skipped", () => {
    const text = specOf([
      ["f", ["{id: a, intent: x, skip_if: 'False', next: c}", "{id: b, intent: x}", "{id: c, intent: x}"]],
    ]);
    expect(summary(verdict(text)).dead).toEqual(["b:route-never-taken"]);
  });

  it("a skipped step's next is not taken: skipping moves to the following position", () => {
    const text = specOf([
      ["f", ["{id: a, intent: x, skip_if: 'True', next: c}", "{id: b, intent: x}", "{id: c, intent: x}"]],
    ]);
    expect(summary(verdict(text)).dead).toEqual(["a:always-skipped"]);
  });
});

describe("sub-flows", () => {
  it("a child that never ends leaves its parent's step unanswered", () => {
    const text = specOf([
      ["child", ["{id: review, intent: x}", "{id: fix, intent: x, next: review}"]],
      ["f", ["{id: c, flow: child}", "{id: z, intent: x}"]],
    ]);
    const v = verdict(text);
    expect(summary(v)).toMatchObject({ completes: false, traps: ["c"] });
    expect(v.traps[0]?.stuckChild).toBe("child");
    const parent = controlDiagnostics(text).filter((d) => d.path.startsWith("flows.f."));
    expect(parent.map((d) => d.message)).toEqual([
      "Flow 'f' can never complete: step 'c' runs flow 'child', which never ends, so the step is never answered",
      "Step 'z' can never run: step 'c' runs flow 'child', which never ends",
    ]);
  });

  it("a child that can only be killed or exhaust still hands a result to its parent", () => {
    const text = specOf([
      ["child", [`{id: review, intent: x, ${ENSURE}}`, "{id: fix, intent: x, next: review}"]],
      ["f", ["{id: c, flow: child}", "{id: z, intent: x}"]],
    ]);
    expect(verdict(text, "child")).toMatchObject({ completes: false, ends: true });
    expect(summary(verdict(text))).toMatchObject({ completes: true, optionToComplete: true });
  });
});
