// The processes every HTTP-level test talks to, for both runners: the production build
// (scripts/e2e-server.mjs) and the crowd platforms' stand-in (e2e/crowd-receiver.ts).
// playwright.config.ts gives them to its webServer; test/http/global-setup.ts (the vitest HTTP suite)
// starts them itself, on the next port, so the two suites never share a server.
import { receiverOrigin, receiverPort } from "./crowd-receiver";

export interface ServerCommand {
  command: string;
  /** Answers 200 once the process serves. */
  healthURL: string;
  env: Record<string, string>;
}

/** The app on `port` and the crowd receiver beside it. */
export function e2eServers(port: number): { baseURL: string; crowdReceiver: string; app: ServerCommand; receiver: ServerCommand } {
  const baseURL = `http://localhost:${port}`;
  const crowdReceiver = receiverOrigin(port);
  return {
    baseURL,
    crowdReceiver,
    // KPS_CROWD_FRAME_ORIGINS: the receiver may frame /crowd/… as MTurk's own sites may; KPS_MTURK_SANDBOX_ORIGIN: it stands in
    // for the sandbox, where the assignments of campaigns whose MTurk site is "sandbox" are submitted.
    app: {
      command: "node scripts/e2e-server.mjs",
      healthURL: `${baseURL}/api/health`,
      env: {
        PORT: String(port),
        KPS_ADMIN_USERNAME: "e2e-admin",
        KPS_ADMIN_PASSWORD: "e2e-admin-password",
        KPS_CROWD_FRAME_ORIGINS: crowdReceiver,
        KPS_MTURK_SANDBOX_ORIGIN: crowdReceiver,
      },
    },
    receiver: {
      command: `node node_modules/tsx/dist/cli.mjs e2e/crowd-receiver.ts --port ${receiverPort(port)}`,
      healthURL: `${crowdReceiver}/health`,
      env: {},
    },
  };
}
