// Calls one function the TypeScript SDK exports (getSessionInfo, renameSession, ...) for
// the Python harness, in a process of its own that ends with the call; or makes one instance
// of a class it exports and calls its methods in turn.
//
// Python -> here (stdin), one line:  {"sdk": "/abs/sdk.mjs", "name": "getSessionInfo", "args": [...]}
//                                  | {"sdk": "/abs/sdk.mjs", "new": "InMemorySessionStore", "args": [...],
//                                     "calls": [{"method": "append", "args": [...]}, ...]}
// here -> Python (stdout), one line: {"value": V} (undefined as {"undefined": true})
//                                    | {"error": {"name": "Error", "message": "..."}}
//   for "new": {"value": [one such reply per call, in order]} (a call's error does not stop the next),
//   or {"error": ...} when the instance could not be made
// The environment (CLAUDE_CONFIG_DIR above all) and cwd are the ones Python started it with.
import { createInterface } from "node:readline";

const errorOf = (err) => ({ name: err?.name ?? "Error", message: String(err?.message ?? err) });

async function settle(run) {
  try {
    const value = await run();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: errorOf(err) };
  }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { sdk, name, args, calls } = JSON.parse(line);
  const made = JSON.parse(line).new;
  let reply;
  try {
    const module = await import(sdk);
    if (made !== undefined) {
      const cls = module[made];
      if (typeof cls !== "function") throw new TypeError(`the SDK exports no class ${made}`);
      const instance = new cls(...(args || []));
      const replies = [];
      for (const { method, args: given } of calls || []) {
        replies.push(
          await settle(async () => {
            if (typeof instance[method] !== "function") throw new TypeError(`${made} has no method ${method}`);
            return instance[method](...(given || []));
          }),
        );
      }
      reply = { value: replies };
    } else {
      const fn = module[name];
      if (typeof fn !== "function") throw new TypeError(`the SDK exports no function ${name}`);
      reply = await settle(() => fn(...args));
    }
  } catch (err) {
    reply = { error: errorOf(err) };
  }
  // the SDK may leave handles open (timers, watchers): the call is over once its reply is out
  process.stdout.write(JSON.stringify(reply) + "\n", () => process.exit(0));
  break;
}
