// The server's change events (`GET /api/events`, text/event-stream) read with fetch, not
// EventSource: EventSource cannot send the Authorization header the page's session travels in
// (session.ts). Reconnects a second after the stream ends or fails, as EventSource would.
import { authHeaders } from "./session";

export type LiveState = "live" | "connecting" | "offline";

const RETRY_MS = 1_000;

/**
 * Calls `onChange` on each change (and on each reconnection: whatever changed meanwhile). The
 * promise settles when the first connection is open or has failed: the server tells only of
 * changes made after it, so what the page shows is to be loaded after that (main.ts).
 */
export function listenForChanges(onChange: () => void, onState: (state: LiveState) => void): Promise<void> {
  let connected = false;
  let settle: () => void = () => {};
  const firstAttempt = new Promise<void>((resolve) => {
    settle = resolve;
  });
  void (async () => {
    for (;;) {
      try {
        const response = await fetch("/api/events", {
          headers: { ...authHeaders(), Accept: "text/event-stream" },
          cache: "no-store",
          credentials: "omit",
        });
        if (response.status === 401) {
          onState("offline");
          settle();
          return;
        }
        if (response.ok && response.body !== null) {
          onState("live");
          settle();
          // The page has just loaded what it shows; after a reconnection, whatever changed meanwhile.
          if (connected) onChange();
          connected = true;
          await readEvents(response.body, onChange);
        }
      } catch {
        // The server went away or the network failed: try again below.
      }
      settle();
      onState("connecting");
      await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS));
    }
  })();
  return firstAttempt;
}

async function readEvents(body: ReadableStream<Uint8Array>, onChange: () => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (/^event: ?change$/m.test(event)) onChange();
    }
  }
}
