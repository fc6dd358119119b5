// How long a server stopped by a signal waits for the calls it cancelled to answer, over stdio and
// over HTTP: an agent of stratum_agent_run gets SIGTERM, then SIGKILL 5 s later (host/agent-run),
// and its call answers once it has ended; fuzz and check workers are stopped at once and their
// calls answer within ANSWER_WAIT_MS. A request still unanswered then is answered as cancelled.
export const CANCEL_WAIT_MS = 7_000;
export const ANSWER_WAIT_MS = 2_000;
