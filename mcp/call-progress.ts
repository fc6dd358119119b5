// The progress reporter of one tools/call: notifications/progress with the request's token,
// related to the request (so a transport that answers on the request's own stream sends them
// there), throttled (progress.ts), and none once the call is cancelled. A request without a
// progress token gets no reporter.
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { type Progress, type ProgressReporter, progressReporter, progressTokenOf } from "./progress";

/** The longest progress message sent (a flow name is user text). */
const MAX_MESSAGE_CHARS = 500;

export function callProgress(
  meta: unknown,
  send: (notification: ServerNotification) => Promise<void>,
  signal: AbortSignal,
): ProgressReporter | undefined {
  const progressToken = progressTokenOf(meta);
  if (progressToken === undefined) return undefined;
  const notify = (p: Progress): void => {
    const message =
      p.message === undefined || p.message.length <= MAX_MESSAGE_CHARS
        ? p.message
        : `${p.message.slice(0, MAX_MESSAGE_CHARS)}…`;
    send({
      method: "notifications/progress",
      params: {
        progressToken,
        progress: p.progress,
        ...(p.total === undefined ? {} : { total: p.total }),
        ...(message === undefined ? {} : { message }),
      },
    }).catch(() => undefined);
  };
  return progressReporter(notify, { signal });
}
