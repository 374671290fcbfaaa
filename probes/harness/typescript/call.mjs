// Calls one function the TypeScript SDK exports (getSessionInfo, renameSession, ...) for
// the Python harness, in a process of its own that ends with the call.
//
// Python -> here (stdin), one line:  {"sdk": "/abs/sdk.mjs", "name": "getSessionInfo", "args": [...]}
// here -> Python (stdout), one line: {"value": V} (undefined as {"undefined": true})
//                                    | {"error": {"name": "Error", "message": "..."}}
// The environment (CLAUDE_CONFIG_DIR above all) and cwd are the ones Python started it with.
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { sdk, name, args } = JSON.parse(line);
  let reply;
  try {
    const fn = (await import(sdk))[name];
    if (typeof fn !== "function") throw new TypeError(`the SDK exports no function ${name}`);
    const value = await fn(...args);
    reply = value === undefined ? { undefined: true } : { value };
  } catch (err) {
    reply = { error: { name: err?.name ?? "Error", message: String(err?.message ?? err) } };
  }
  // the SDK may leave handles open (timers, watchers): the call is over once its reply is out
  process.stdout.write(JSON.stringify(reply) + "\n", () => process.exit(0));
  break;
}
