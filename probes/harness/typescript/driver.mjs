// sdkprobe's TypeScript driver: runs one query() of @anthropic-ai/claude-agent-sdk for
// the Python harness, which talks to it in JSON lines.
//
// Python -> driver (stdin), the first line:
//   {"start": {"sdk": "/abs/sdk.mjs", "options": {...}, "prompt": "text" | null, "env": {...}, "cwd": "/dir",
//              "startup": {...}?}}
//   with "startup" (startup()'s parameters but its options) the CLI is pre-warmed by
//   startup({options, ...}); once that resolved the callback "$warmed" is asked (and its
//   answer awaited, so Python sees the CLI as startup() left it), then the query is the
//   WarmQuery's query(prompt)
//   options are the TypeScript SDK's own; a value {"$undefined": true} is undefined (a key the
//   caller wrote as undefined); a value {"$callback": NAME} becomes a function
//   that asks Python (canUseTool, a hook, a sessionStore method, stderr), an mcpServers entry
//   {"type": "sdk", "$tools": [...]} an in-process server whose tools ask Python. prompt null: the prompt is
//   a stream fed by the lines below.
// then any of:
//   {"user": SDKUserMessage}           one message into the prompt stream
//   {"end_input": true}                the prompt stream ends
//   {"call": ID, "method": M, "args": [...]}   Query.M(...args): interrupt, setModel, ...; an argument
//                                      {"$iterable": [...]} is passed as an async iterable of those items
//   {"abort": true}                    abort() the query's AbortController (the driver's own, unless
//                                      the options gave one)
//   {"answer": ID, "value": V} | {"answer": ID, "error": TEXT}   what a callback returns
// driver -> Python (stdout):
//   {"message": SDKMessage}            each message query() yields, in order
//   {"ask": ID, "callback": NAME, "args": [...]}   a callback was called (its AbortSignal left out)
//   {"aborted": ID}                    the SDK aborted that call's signal
//   {"notify": NAME, "args": [...]}    a callback whose return value the SDK ignores (stderr)
//   {"spawned": PID, "argv": [...]} / {"exited": PID, "code", "signal"}   a process the SDK started, and its end
//   {"returned": ID, "value": V} | {"returned": ID, "error": {...}}
//   {"end": true} | {"error": {"name", "message", "exported"?}}   how the iteration ended; an error
//                                      carries `exported`, the name of the SDK's exported error class
//                                      that made it (AbortError), when one did
// The driver exits once its stdin closes after the end. Started as `node driver.mjs SDK`, it
// loads that SDK module before the start line comes (a warm driver waiting for its run).

import cp from "node:child_process";
import { setMaxListeners } from "node:events";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const out = (obj) => process.stdout.write(JSON.stringify(obj, replacer) + "\n");

function replacer(_key, value) {
  if (typeof AbortSignal !== "undefined" && value instanceof AbortSignal) return undefined;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "function") return undefined;
  return value;
}

let sdkModule = null; // the SDK's module, once loaded: its exported error classes name what it threw

function errorOf(e) {
  if (!(e instanceof Error)) return { name: "Error", message: String(e) };
  const error = { name: e.constructor?.name || e.name || "Error", message: e.message };
  // The error class the SDK exports that made it (AbortError), when one did: its own class's
  // name may be minified, and an Error a subclass of none of them has no such field.
  const exported = Object.entries(sdkModule || {}).find(
    ([, value]) => typeof value === "function" && value.prototype instanceof Error && Object.getPrototypeOf(e) === value.prototype,
  );
  if (exported) error.exported = exported[0];
  return error;
}

let asked = 0;
const pending = new Map(); // ask id -> {resolve, reject}

function ask(name, args, signal) {
  const id = ++asked;
  const answered = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  if (signal) {
    if (signal.aborted) out({ aborted: id });
    else signal.addEventListener("abort", () => out({ aborted: id }), { once: true });
  }
  out({ ask: id, callback: name, args });
  return answered;
}

const CALLBACKS = {
  // canUseTool(toolName, input, {signal, suggestions, ...})
  canUseTool: (name) => (toolName, input, options) => ask(name, [toolName, input, options], options?.signal),
  // a hook callback(input, toolUseID, {signal})
  hook: (name) => (input, toolUseID, options) => ask(name, [input, toolUseID ?? null], options?.signal),
  // a sessionStore method: append(key, entries), load(key), listSessions(projectKey), ...
  store: (name) => (...args) => ask(name, args),
  // a TypeScript-only option's callback (onElicitation, onUserDialog, ...): its arguments, its answer
  call: (name) => (...args) => ask(name, args, args.find((a) => a?.signal instanceof AbortSignal)?.signal),
  // an abortController: aborted once Python answers the ask made as it is made (the probe's abort())
  abort: (name) => {
    const controller = new AbortController();
    ask(name, []).then(() => controller.abort(), () => {});
    return controller;
  },
  // spawnClaudeCodeProcess answered here, as a host would: the command started as the SDK gives it (args,
  // cwd, environment; SDKPROBE_HOST_SPAWN=NAME set, so the CLI's environment shows whose spawn it was),
  // and Python told what the SDK called it with
  spawn: (name) => ({ command, args, cwd, env, signal }) => {
    out({ notify: name, args: [{ command, args, cwd, env }] });
    const stdio = ["pipe", "pipe", "pipe"];
    return cp.spawn(command, args, { cwd, env: { ...env, SDKPROBE_HOST_SPAWN: name }, signal, stdio });
  },
  // stderr(data): its return value is ignored by the SDK
  notify: (name) => (...args) => out({ notify: name, args }),
};

function revive(value) {
  // {"$callback": NAME, "kind": K} anywhere in the options becomes the function that asks Python;
  // {"$undefined": true} a key the caller wrote with the value undefined.
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === "object") {
    if (typeof value.$callback === "string") return CALLBACKS[value.kind || "canUseTool"](value.$callback);
    if (value.$undefined === true) return undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
  }
  return value;
}

// The prompt stream: messages Python sends, in order, until end_input.
function promptStream() {
  const queue = [];
  let wake = null;
  let ended = false;
  const stream = {
    push(message) {
      queue.push(message);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length) {
          yield queue.shift();
          continue;
        }
        if (ended) return;
        await new Promise((resolve) => (wake = resolve));
        wake = null;
      }
    },
  };
  return stream;
}

// An in-process server Python described ({"type": "sdk", name, "$tools", "$key"}) built with
// the SDK's own createSdkMcpServer() and tool(), each tool's zod shape made from its JSON
// schema and its handler asking Python; any other server config is passed as it is.
async function inProcessServers(module, sdkPath, servers) {
  const described = Object.values(servers).filter((c) => c && Array.isArray(c.$tools));
  if (!described.length) return servers;
  const zod = await import(pathToFileURL(createRequire(sdkPath).resolve("zod")).href);
  const z = zod.z ?? zod.default?.z ?? zod.default ?? zod;
  const built = {};
  for (const [key, config] of Object.entries(servers)) {
    if (!config || !Array.isArray(config.$tools)) {
      built[key] = config;
      continue;
    }
    const tools = config.$tools.map((t) =>
      module.tool(
        t.name,
        t.description ?? "",
        shapeOf(t.inputSchema || {}, z),
        (args) => ask(`mcp:${config.$key}:${t.name}`, [args]),
        t.annotations ? { annotations: t.annotations } : undefined,
      ),
    );
    built[key] = module.createSdkMcpServer({ name: config.name, version: config.version, tools });
  }
  return built;
}

function shapeOf(schema, z) {
  const required = new Set(schema.required || []);
  return Object.fromEntries(
    Object.entries(schema.properties || {}).map(([k, s]) => {
      const t = zodOf(s, z);
      return [k, required.has(k) ? t : t.optional()];
    }),
  );
}

function zodOf(schema, z) {
  if (!schema || typeof schema !== "object") return z.any();
  let t;
  if (schema.enum) t = z.enum(schema.enum.map(String));
  else if (schema.type === "string") t = z.string();
  else if (schema.type === "integer") t = z.number().int();
  else if (schema.type === "number") t = z.number();
  else if (schema.type === "boolean") t = z.boolean();
  else if (schema.type === "array") t = z.array(zodOf(schema.items, z));
  else if (schema.type === "object" && schema.properties) t = z.object(shapeOf(schema, z));
  else if (schema.type === "object") t = z.record(z.string(), z.any());
  else t = z.any();
  return schema.description ? t.describe(schema.description) : t;
}

let query = null;
let stream = null;
// The query's AbortController, as a host holds the one it passes: made as the SDK makes its
// default one (50 listeners), so a query given it runs as one given none; `abort` aborts it.
let controller = null;
let finished = false;
let ready;
const started = new Promise((resolve) => (ready = resolve));

// Each process the SDK spawns (its CLI) is reported with how it ended, as Python's own child
// watcher reports the CLI a Python SDK started: the run's exit codes. Only observed, never changed.
const spawn = cp.spawn;
cp.spawn = function (...args) {
  const child = spawn.apply(this, args);
  out({ spawned: child.pid ?? null, argv: [String(args[0]), ...(Array.isArray(args[1]) ? args[1].map(String) : [])] });
  child.on("exit", (code, signal) => out({ exited: child.pid ?? null, code, signal }));
  return child;
};
syncBuiltinESMExports();

// The environment the driver was started with, before the SDK is loaded.
const launched = { ...process.env };

// The SDK's module named on the command line is loaded at once, before any start line comes.
const preloaded = process.argv[2] ? import(pathToFileURL(process.argv[2]).href) : null;
preloaded?.catch(() => {}); // a failed load is reported when a start line uses it

async function start({ sdk, options, prompt, env, cwd, startup }) {
  const module = await (sdk === process.argv[2] && preloaded ? preloaded : import(pathToFileURL(sdk).href));
  sdkModule = module;
  // The run's environment and working directory, as the host process has them now, with
  // what loading the SDK set in process.env kept: as a process started for this run has it.
  if (env) {
    const loaded = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => launched[k] !== v));
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, env, loaded);
  }
  if (cwd) process.chdir(cwd);
  const revived = revive(options || {});
  if (revived.mcpServers) revived.mcpServers = await inProcessServers(module, sdk, revived.mcpServers);
  if (revived.abortController === undefined) {
    revived.abortController = new AbortController();
    setMaxListeners(50, revived.abortController.signal);
  }
  controller = revived.abortController;
  try {
    if (startup) {
      const warm = await module.startup({ ...startup, options: revived });
      await ask("$warmed", []);
      query = warm.query(stream ?? prompt);
    } else query = module.query({ prompt: stream ?? prompt, options: revived });
  } finally {
    ready();
  }
  try {
    for await (const message of query) out({ message });
    out({ end: true });
  } catch (e) {
    out({ error: errorOf(e) });
  } finally {
    finished = true;
  }
}

// A call's argument as the method takes it: {"$iterable": [...]} an async iterable of its items.
function argument(value) {
  if (value && typeof value === "object" && Array.isArray(value.$iterable)) {
    const items = value.$iterable;
    return (async function* () {
      for (const item of items) yield item;
    })();
  }
  return value;
}

async function call(id, method, args) {
  try {
    await started;
    if (!query || typeof query[method] !== "function") throw new Error(`Query has no method ${method}`);
    const value = await query[method](...(args || []).map(argument));
    out({ returned: id, value: value === undefined ? null : value });
  } catch (e) {
    out({ returned: id, error: errorOf(e) });
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    out({ error: { name: "DriverError", message: `not JSON: ${line.slice(0, 80)}` } });
    return;
  }
  if (msg.start) {
    // The prompt stream exists before the SDK is loaded: lines after this one may feed it.
    stream = msg.start.prompt === null || msg.start.prompt === undefined ? promptStream() : null;
    start(msg.start).catch((e) => out({ error: errorOf(e) }));
  }
  else if (msg.user) stream?.push(msg.user);
  else if (msg.end_input) stream?.end();
  else if (msg.abort) started.then(() => controller?.abort());
  // A Query method runs once what the lines before it set going has settled (a prompt message
  // reaches the SDK in microtasks), whether they came in one read or several: as sent, in order.
  else if (msg.call !== undefined) setImmediate(() => call(msg.call, msg.method, msg.args));
  else if (msg.answer !== undefined) {
    const waiter = pending.get(msg.answer);
    pending.delete(msg.answer);
    if (!waiter) return;
    if (msg.error !== undefined) waiter.reject(new Error(msg.error));
    else waiter.resolve(msg.value);
  }
});
lines.on("close", () => {
  // The host is gone: end the prompt stream and the query, then leave.
  stream?.end();
  for (const waiter of pending.values()) waiter.reject(new Error("the host closed the driver"));
  pending.clear();
  if (query && !finished) {
    Promise.resolve(query.return?.()).finally(() => setTimeout(() => process.exit(0), 50).unref());
  }
});
