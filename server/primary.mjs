// The cluster's primary (KPS_WORKERS > 1 on PostgreSQL): forks the workers, which share the port
// (the primary accepts and hands connections round robin), says "Ready" once all of them listen,
// restarts a worker that dies unexpectedly (after a back-off that grows while workers keep dying),
// passes SIGINT/SIGTERM on and exits when every worker is gone. It loads no app code: migrations and
// start-up work run in the workers (db/migrate.ts and lib/bootstrap.ts take advisory locks, so
// workers starting together take turns), and the demo is seeded and printed once, by the worker the
// primary names the lead (KPS_START_UP). A worker whose primary disappears (kill -9) exits at once
// (node:cluster ends a worker whose IPC channel closes), and the port dies with the primary.
import cluster from "node:cluster";
import { connectionCapPerWorker } from "./settings.mjs";

/** Restart back-off: 250 ms, doubled for every restart in the last minute, at most 10 s. */
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 10_000;
const BACKOFF_WINDOW_MS = 60_000;
/** After SIGINT/SIGTERM, workers still alive after this are killed. */
const STOP_GRACE_MS = 10_000;

export function runPrimary(settings) {
  const { workers, port } = settings;
  const cap = connectionCapPerWorker(settings.maxConnectionsPerAddress, workers);
  console.log(
    `Primary ${process.pid}: ${workers} worker processes (KPS_WORKERS) share port ${port}` +
      (cap
        ? `; each allows ${cap} connections per address (KPS_MAX_CONNECTIONS_PER_ADDRESS ${settings.maxConnectionsPerAddress} / ${workers})`
        : ""),
  );
  let ready = false;
  let stopping = false;
  let exitCode = 0;
  const listening = new Set();
  const alive = new Set();
  const restarts = [];

  // The first worker leads start-up (the demo is seeded and printed by it alone); the others, and
  // any worker started again later, follow (lib/bootstrap.ts).
  let forked = 0;
  const fork = () => {
    const worker = cluster.fork({ KPS_START_UP: forked++ === 0 ? "lead" : "follow" });
    alive.add(worker);
    worker.once("listening", () => {
      listening.add(worker.id);
      if (ready) console.log(`Worker ${worker.process.pid} serves again.`);
      else if (listening.size === workers) {
        ready = true;
        console.log(`Ready: http://localhost:${port} (${workers} workers)`);
      }
    });
  };

  cluster.on("exit", (worker, code, signal) => {
    listening.delete(worker.id);
    alive.delete(worker);
    if (stopping) {
      if (alive.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!ready) {
      // Start-up failed (database unreachable, port taken, invalid settings): as one process would, stop.
      console.error(`Worker ${worker.process.pid} exited with ${how} before the server was ready: stopping.`);
      stopAll("SIGTERM", 1);
      return;
    }
    const now = Date.now();
    while (restarts.length && now - restarts[0] > BACKOFF_WINDOW_MS) restarts.shift();
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** restarts.length);
    restarts.push(now);
    console.error(`Worker ${worker.process.pid} died (${how}); a new worker starts in ${delay} ms.`);
    setTimeout(() => stopping || fork(), delay);
  });

  const stopAll = (signal, code) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (alive.size === 0) process.exit(code);
    for (const worker of alive) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of alive) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(signal, 0));

  for (let i = 0; i < workers; i++) fork();
}
