#!/usr/bin/env node
// The kps command-line client. It talks to a running app over HTTP only (see `kps --help`).
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./cli.ts");
process.exitCode = await main(process.argv);
