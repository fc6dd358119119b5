// `stratumc ui --notify`'s part of the server (docs/guides/ui-notify.md): the webhooks' sender and
// the gate watcher over the same flow reader and the same kind of store watch as the page's.
import type { NodeHost } from "../../host/index";
import type { FlowReader } from "../flow-reader";
import { FlowSource } from "../flow-source";
import { StoreWatch } from "../store-watch";
import { GateNotifier } from "./gate-notifier";
import { DEFAULT_ATTEMPTS, NotificationSender } from "./sender";
import { type NotifyTarget, parseNotifyTargets, parsePublicUrl, splitNotifyList } from "./targets";

interface NotifyOptions {
  readonly targets: readonly NotifyTarget[];
  /** The page's address as links give it, ending in `/`. */
  readonly publicUrl: URL;
  /** The most attempts per notification. */
  readonly attempts: number;
}

/** Starts watching; resolves, once what already waits is known, with the function that stops it all. */
async function startNotify(
  flowHost: NodeHost,
  reader: FlowReader,
  options: NotifyOptions,
  logError: (message: string) => void,
): Promise<() => void> {
  const sender = new NotificationSender(options.targets, {
    attempts: options.attempts,
    warn: (message) => logError(`warning: ${message}`),
  });
  const store = flowHost.store;
  const source = new FlowSource(flowHost);
  const watch = new StoreWatch({
    ...(store.watch === undefined ? {} : { feed: (listener: () => void) => store.watch!(listener) }),
    dir: flowHost.watchDir,
    signature: () => source.signature(),
    intervalMs: 500,
    logError,
  });
  const notifier = new GateNotifier({
    list: () => reader.list(),
    subscribe: (listener) => watch.subscribe(listener),
    send: (notification) => sender.send(notification),
    publicUrl: options.publicUrl,
    logError,
  });
  await notifier.start();
  return () => {
    notifier.stop();
    watch.stop();
    sender.close();
  };
}

/** `--notify`'s addresses, else STRATUM_NOTIFY's (commas or white space between them). */
export function notifyAddresses(
  given: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): readonly string[] {
  return given !== undefined && given.length > 0 ? given : splitNotifyList(env.STRATUM_NOTIFY);
}

/** Why these notification options cannot be used, or null. */
export function refuseNotifyOptions(
  addresses: readonly string[],
  publicUrl: string | undefined,
): string | null {
  const targets = parseNotifyTargets(addresses);
  if (!targets.ok) return targets.message;
  if (publicUrl !== undefined) {
    const url = parsePublicUrl(publicUrl);
    if (typeof url === "string") return url;
  }
  return null;
}

export interface LaunchOptions {
  readonly addresses: readonly string[];
  /** `--public-url`. */
  readonly publicUrl?: string;
  /** The bound address, when there is no `--public-url`. */
  readonly defaultBase: string;
  readonly notifyAttempts?: number;
}

/**
 * Starts notifying when there are webhooks (options already checked by refuseNotifyOptions); the
 * server does not wait for it. `announce` hears the line that says where notifications go, once
 * what already waits is known. Returns the function that stops it, whenever it is called.
 */
export function launchNotify(
  flowHost: NodeHost,
  reader: () => FlowReader,
  options: LaunchOptions,
  logError: (message: string) => void,
  announce: (line: string) => void,
): () => void {
  const targets = parseNotifyTargets(options.addresses);
  const publicUrl = parsePublicUrl(options.publicUrl ?? options.defaultBase);
  if (!targets.ok || targets.targets.length === 0 || typeof publicUrl === "string") return () => undefined;
  let stop: (() => void) | null = null;
  let stopped = false;
  startNotify(
    flowHost,
    reader(),
    { targets: targets.targets, publicUrl, attempts: options.notifyAttempts ?? DEFAULT_ATTEMPTS },
    logError,
  ).then(
    (started) => {
      if (stopped) return started();
      stop = started;
      announce(
        `notifying ${targets.targets.map((t) => t.shown).join(", ")} of each gate that starts waiting; links open ${publicUrl.href}`,
      );
    },
    (e: unknown) => logError(`notifications are off: ${e instanceof Error ? e.message : String(e)}`),
  );
  return () => {
    stopped = true;
    stop?.();
  };
}
