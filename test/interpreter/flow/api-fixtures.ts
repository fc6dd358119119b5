// Helpers of the tests that drive flows through the engine (createApi over a MemoryStore).
import { expect } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import type { FlowState } from "../../../interpreter/base/flow-state";
import type { FlowStore } from "../../../interpreter/store/store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { parseJson } from "../../../stdlib/values/json";
import { storedState } from "../../support/stored-flow";
import { makeTestApi, type TestApi } from "../support/make-test-api";

export function harness(cwd = "/nowhere"): TestApi {
  return makeTestApi({ cwd });
}

/** The plain JSON data of a response (floats as numbers). */
export function plain(r: Response): unknown {
  return wireToPlain(r);
}

export async function planOk(api: StratumApi, spec: string, flow = "main", inputs = "{}"): Promise<Response> {
  const response = await api.plan({ spec, flow, inputs: parseJson(inputs) });
  expect(response.status, JSON.stringify(plain(response))).not.toBe("error");
  return response;
}

export async function stored(store: FlowStore, flowId: string): Promise<FlowState> {
  const state = await storedState(store, flowId);
  if (state === null) throw new Error(`flow ${flowId} is not stored`);
  return state;
}

export function result(jsonText: string) {
  return parseJson(jsonText);
}
