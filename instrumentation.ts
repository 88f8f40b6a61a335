/** Next.js start-up hook: on the Node.js runtime, open and migrate the database and bootstrap it. */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startUp } = await import("@/app/_server/start-up");
    await startUp();
  }
}
