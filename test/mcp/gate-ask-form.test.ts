// The form stratum_gate_ask shows and the check of what the client answers (mcp/gate-ask-form.ts),
// the await_gate hint and the STRATUM_GATES setting.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_GATE_ASK_TIMEOUT_S, gateSettingOf } from "../../host/index";
import {
  checkAnswer,
  type GateContext,
  gateForm,
  MESSAGE_LIMIT,
  NOTE_LIMIT,
  type Outcome,
  REVIEWED_LIMIT,
  truncated,
} from "../../mcp/gate-ask-form";
import { gateHintText, withGateHint } from "../../mcp/human-gates";

const GATE: GateContext = {
  flowId: "F1",
  flowName: "publish",
  stepId: "review",
  intent: "Approve it",
  onApprove: "ship",
  onRevise: "draft",
  onKill: null,
  round: 0,
  maxRounds: 2,
  revision: 4,
  allowed: ["approve", "revise", "kill"],
  reviewed: [{ stepId: "draft", output: "x".repeat(10_000) }],
};

describe("truncated", () => {
  it("keeps short text, cuts long text to the limit with the count of what was cut", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 300 }),
        fc.integer({ min: 60, max: 200 }),
        (text, limit) => {
          const out = truncated(text, limit);
          if (text.length <= limit) expect(out).toBe(text);
          else {
            expect(out.length).toBeLessThanOrEqual(limit);
            const kept = out.slice(0, out.indexOf(" … ["));
            expect(text.startsWith(kept)).toBe(true);
            expect(out).toContain(`${text.length - limit} more characters not shown`);
            // Never half a surrogate pair at the cut.
            const last = kept.charCodeAt(kept.length - 1);
            expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
          }
        },
      ),
    );
  });
});

describe("gateForm", () => {
  it("is a flat form of the allowed outcomes and a bounded note, the result cut to its limit", () => {
    const form = gateForm(GATE, "Look at the tone");
    expect(form.requestedSchema).toEqual({
      type: "object",
      properties: {
        outcome: {
          type: "string",
          title: "Decision",
          description:
            "approve: continue at 'ship'; revise: send the work back to 'draft'; kill: stop the flow",
          enum: ["approve", "revise", "kill"],
        },
        note: expect.objectContaining({ type: "string", maxLength: NOTE_LIMIT }),
      },
      required: ["outcome"],
    });
    expect(form.message).toContain(
      "It approves: Approve it\nRound 1; at most 2 revises.\nThe agent says: Look at the tone",
    );
    const shown = form.message.split("\n")[5] ?? "";
    expect(shown.length).toBeLessThanOrEqual(REVIEWED_LIMIT);
    expect(shown).toMatch(/^"x+ … \[\d+ more characters not shown\]$/);
  });

  it("keeps the whole message within its limit however many results are reviewed", () => {
    const many = {
      ...GATE,
      reviewed: Array.from({ length: 20 }, (_, i) => ({ stepId: `s${i}`, output: "y".repeat(5_000) })),
    };
    expect(gateForm(many, null).message.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
  });
});

describe("checkAnswer", () => {
  const allowed: readonly Outcome[] = ["approve", "kill"];

  it("accepts exactly an allowed outcome and an optional note of text within the limit", () => {
    expect(checkAnswer({ outcome: "kill", note: "no" }, allowed)).toEqual({
      ok: true,
      outcome: "kill",
      note: "no",
    });
    expect(checkAnswer({ outcome: "approve" }, allowed)).toEqual({ ok: true, outcome: "approve", note: "" });
    expect(checkAnswer({ outcome: "approve", note: "n".repeat(NOTE_LIMIT) }, allowed).ok).toBe(true);
    expect(checkAnswer({ outcome: "approve", note: "n".repeat(NOTE_LIMIT + 1) }, allowed).ok).toBe(false);
    expect(checkAnswer({ outcome: "revise" }, allowed).ok).toBe(false);
    expect(checkAnswer(Object.create({ outcome: "approve" }), allowed).ok).toBe(false);
  });

  it("never accepts anything else (fast-check over JSON values)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (content) => {
        const answer = checkAnswer(content, allowed);
        if (!answer.ok) return;
        const fields = content as Record<string, unknown>;
        expect(Object.keys(fields).every((k) => k === "outcome" || k === "note")).toBe(true);
        expect(allowed).toContain(fields.outcome);
        expect(answer.note.length).toBeLessThanOrEqual(NOTE_LIMIT);
      }),
    );
  });
});

describe("the await_gate hint", () => {
  const gate = { status: "await_gate", flow_id: "F1", step_id: "review" };

  it("is added for a client that can elicit or a human-only server, and never otherwise", () => {
    expect(gateHintText(false, "any")).toBeNull();
    expect(withGateHint(gate, gateHintText(false, "any"))).toBe(gate);
    expect(withGateHint(gate, gateHintText(true, "any"))).toMatchObject({
      gate_hint: expect.stringMatching(/stratum_gate_ask/),
    });
    expect(withGateHint(gate, gateHintText(false, "human"))).toMatchObject({
      gate_hint: expect.stringMatching(/stratumc gate/),
    });
  });

  it("reaches a sub-flow's first gate, and leaves other payloads alone", () => {
    const hint = gateHintText(true, "any");
    const nested = withGateHint({ status: "execute_flow", child_step: gate }, hint);
    expect(nested).toMatchObject({ child_step: { gate_hint: hint } });
    const step = { status: "execute_step", step_id: "a" };
    expect(withGateHint(step, hint)).toBe(step);
  });
});

describe("gateSettingOf", () => {
  it("reads STRATUM_GATES and STRATUM_GATE_ASK_TIMEOUT, refusing what it does not know", () => {
    expect(gateSettingOf({})).toEqual({
      ok: true,
      setting: { mode: "any", askTimeoutMs: DEFAULT_GATE_ASK_TIMEOUT_S * 1000 },
    });
    expect(gateSettingOf({ STRATUM_GATES: " human ", STRATUM_GATE_ASK_TIMEOUT: "30" })).toEqual({
      ok: true,
      setting: { mode: "human", askTimeoutMs: 30_000 },
    });
    expect(gateSettingOf({ STRATUM_GATES: "any" })).toMatchObject({ ok: true, setting: { mode: "any" } });
    for (const bad of ["Human", "humans", "agent", "0", "none"]) {
      expect(gateSettingOf({ STRATUM_GATES: bad })).toEqual({
        ok: false,
        message: `STRATUM_GATES=${JSON.stringify(bad)} is not one of human, any`,
      });
    }
    for (const bad of ["0", "-1", "1.5", "1e3", "86401", "ten"]) {
      expect(gateSettingOf({ STRATUM_GATE_ASK_TIMEOUT: bad })).toMatchObject({ ok: false });
    }
    expect(gateSettingOf({ STRATUM_GATE_ASK_TIMEOUT: "86400" })).toMatchObject({ ok: true });
  });
});
