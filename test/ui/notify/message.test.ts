// The body `stratumc ui --notify` posts (ui/notify/message.ts) and the addresses it accepts
// (ui/notify/targets.ts): Slack's `text` with the spec's words escaped and bounded, the fields as
// they are, a link under the public address, and webhook addresses named in logs by host only.
import { describe, expect, it } from "vitest";
import type { FlowListItem, PendingGate } from "../../../ui/api-types";
import { gateNotification } from "../../../ui/notify/message";
import { parseNotifyTargets, parsePublicUrl, redactUrl, splitNotifyList } from "../../../ui/notify/targets";

const GATE: PendingGate = {
  step_id: "approve",
  function: "review",
  on_approve: null,
  on_revise: "draft",
  on_kill: null,
  timeout: 3_600,
  intent: "Check the draft <!channel> & ship",
};

const FLOW: FlowListItem = {
  flow_id: "f/1 2",
  flow_name: "main",
  status: "awaiting_gate",
  current_step_id: "approve",
  step_count: 2,
  completed_steps: 1,
  round: 0,
  updated_ms: Date.parse("2026-03-01T10:00:00.000Z") + 0.4,
  gate: GATE,
  problem: null,
  parent_flow_id: null,
};

function publicUrl(address: string): URL {
  const url = parsePublicUrl(address);
  if (typeof url === "string") throw new Error(url);
  return url;
}

describe("the notification body", () => {
  it("says what waits, since when, its timeout and where to open it", () => {
    const body = gateNotification(
      { flow: FLOW, gate: GATE, sinceMs: FLOW.updated_ms },
      publicUrl("https://gates.example/stratum"),
    );
    expect(body).toEqual({
      text: "Gate approve of flow main (f/1 2) is waiting for a decision: Check the draft &lt;!channel&gt; &amp; ship. It times out after 1 h. Open it: https://gates.example/stratum/#/flow/f%2F1%202",
      event: "gate_waiting",
      flow_id: "f/1 2",
      flow_name: "main",
      step_id: "approve",
      function: "review",
      approves: "Check the draft <!channel> & ship",
      since: "2026-03-01T10:00:00.000Z",
      since_ms: Date.parse("2026-03-01T10:00:00.000Z"),
      timeout_seconds: 3_600,
      link: "https://gates.example/stratum/#/flow/f%2F1%202",
    });
  });

  it("keeps text to one short line and every field bounded, whatever the spec says", () => {
    const long = `${"x".repeat(5_000)}\n<@U1>`;
    const gate = { ...GATE, step_id: long, intent: long, timeout: null };
    const body = gateNotification(
      { flow: { ...FLOW, flow_name: long }, gate, sinceMs: 0 },
      publicUrl("http://127.0.0.1:7777/"),
    );
    expect(body.text).not.toContain("\n");
    expect(body.text).not.toMatch(/[<>]/);
    expect(body.text.length).toBeLessThan(1_000);
    expect(body.approves?.length).toBe(2_000);
    expect(body.step_id.length).toBe(2_000);
    expect(body.text).not.toContain("times out");
  });

  it("shows no approves part when the gate has no intent", () => {
    const body = gateNotification(
      { flow: FLOW, gate: { ...GATE, intent: null, timeout: 90 }, sinceMs: 0 },
      publicUrl("http://h/"),
    );
    expect(body.approves).toBeNull();
    expect(body.text).toContain("is waiting for a decision. It times out after 90 s.");
  });
});

describe("the webhook addresses", () => {
  it("are split on commas and white space, deduplicated, http(s) only", () => {
    expect(splitNotifyList(" https://a.example/x, https://b.example/y\nhttps://a.example/x ,")).toEqual([
      "https://a.example/x",
      "https://b.example/y",
      "https://a.example/x",
    ]);
    expect(splitNotifyList(undefined)).toEqual([]);
    const parsed = parseNotifyTargets(["https://a.example/x", "https://a.example/x", "http://b:81/y"]);
    expect(parsed.ok && parsed.targets.map((t) => t.shown)).toEqual(["https://a.example/…", "http://b:81/…"]);
    for (const bad of ["ftp://a.example/x", "file:///etc/passwd", "javascript:alert(1)", "not a url"]) {
      const refused = parseNotifyTargets(["https://ok.example/", bad]);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.message).toMatch(/^notification address 2 /);
    }
  });

  it("are named in logs without path, query or credentials", () => {
    expect(redactUrl(new URL("https://user:pw@hooks.slack.com/services/T/B/secret?x=1#y"))).toBe(
      "https://hooks.slack.com/…",
    );
  });

  it("take a public URL without query, fragment or credentials, ending in /", () => {
    expect(publicUrl("https://gates.example/a").href).toBe("https://gates.example/a/");
    expect(parsePublicUrl("https://gates.example/?token=x")).toMatch(/query/);
    expect(parsePublicUrl("https://gates.example/#x")).toMatch(/fragment/);
    expect(parsePublicUrl("https://u:p@gates.example/")).toMatch(/credentials/);
    expect(parsePublicUrl("ws://gates.example/")).toMatch(/http/);
    expect(parsePublicUrl("gates")).toMatch(/must be a URL/);
  });
});
