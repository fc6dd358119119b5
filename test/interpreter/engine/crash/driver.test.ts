// The crash test's driver (driver.ts) against an in-memory engine: it drives a LOOP_SPEC flow from
// plan to completion with every response exactly as expected, and after every move a restarted
// engine resumes the flow with the payload the stored state calls for.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import { makeTestApi } from "../../support/make-test-api";
import { isMainFlow, nextMove, resumeExpectation } from "./driver";
import { ANY, mismatch } from "./expected";
import { ROUNDS } from "./loop-spec";
import { planMain, playNext } from "./play";
import { readState, readView } from "./stored-flows";

/** draft ×5 (start, 2 reports, fail, pass), child + parent report ×2, polish ×1, twice; the gate. */
const MOVES_PER_ROUND = 17;

describe("the crash test's driver", () => {
  it("drives a flow through every round to completion, each response exact", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String((await planMain(h.api)).flow_id);
    const tools: string[] = [];
    for (;;) {
      const played = await playNext(h.api, h.store, id);
      if (played === null) break;
      tools.push(played.move.call.tool);
      // A new process resumes the flow where the store says it is.
      const view = await readView(h.store, id);
      expect(view).not.toBeNull();
      const resumed = await h.fresh().resume({ flow_id: id });
      expect(mismatch(resumed, resumeExpectation(view!))).toBeNull();
    }
    expect(tools.slice(0, MOVES_PER_ROUND)).toEqual([
      "iterationStart",
      "iterationReport",
      "iterationReport",
      "stepDone",
      "stepDone",
      "stepDone",
      "stepDone",
      "stepDone",
      "iterationStart",
      "iterationReport",
      "iterationReport",
      "stepDone",
      "stepDone",
      "stepDone",
      "stepDone",
      "stepDone",
      "gateResolve",
    ]);
    expect(tools).toHaveLength(MOVES_PER_ROUND * (ROUNDS + 1));

    const state = await readState(h.store, id);
    expect(state?.status).toBe("complete");
    expect(state?.round).toBe(ROUNDS);
    expect(nextMove({ state: state!, child: null })).toBeNull();
    const audit = await h.api.audit({ flow_id: id });
    const trace = wireToPlain(audit.trace) as { step_id: string; type: string }[];
    expect(trace.map((r) => `${r.type}:${r.step_id}`)).toEqual([
      "step:draft",
      "step:sub",
      "step:polish",
      "step:draft",
      "step:sub",
      "step:polish",
      "gate:review",
    ]);
    // Two children per round, all finished and kept (DIV-KEEP-FINISHED).
    const children = (await h.store.list()).filter((f) => f.flowId !== id);
    expect(children).toHaveLength(2 * (ROUNDS + 1));
    for (const { flowId } of children) {
      const child = await readState(h.store, flowId);
      expect(child === null ? null : { main: isMainFlow(child), status: child.status }).toEqual({
        main: false,
        status: "complete",
      });
    }
  });

  it("reports a wrong response with the call and the first difference", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String((await planMain(h.api)).flow_id);
    const response = await h.api.iterationStart({ flow_id: id, step_id: "draft" });
    expect(mismatch(response, { status: "iteration_started", flow_id: ANY })).toBe(
      "$: expected keys [status, flow_id], got [status, flow_id, step_id, max_iterations, exit_criterion, iteration] in " +
        JSON.stringify(wireToPlain(response)),
    );
    // The driver, reading the store, now wants the first report — the engine agrees.
    await expect(playNext(h.api, h.store, id)).resolves.toMatchObject({
      move: { call: { tool: "iterationReport" } },
    });
  });
});
