// A stand-in for @anthropic-ai/claude-agent-sdk's query(), for testing sdkprobe's driver
// without npm: it exercises each way the driver relays (messages, canUseTool, a hook,
// stderr, a streaming prompt, a Query method, a thrown error) and yields what it got back.
import { spawn } from "node:child_process";

export function query({ prompt, options }) {
  let interrupted = 0;
  async function* run() {
    yield { type: "system", subtype: "init", session_id: "s1", cwd: process.cwd(), tools: [] };
    if (options.model?.startsWith("throw:")) throw new TypeError(options.model.slice(6));
    if (options.model === "wait-for-abort") {
      const signal = options.abortController.signal;
      await new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", resolve)));
      throw new Aborted("aborted by its host");
    }
    const seen = { options: Object.keys(options).sort(), env_mark: process.env.SDKPROBE_FAKE_MARK ?? null };
    if (typeof prompt === "string") seen.prompt = prompt;
    else {
      seen.prompts = [];
      for await (const m of prompt) {
        seen.prompts.push(m.message.content);
        if (m.message.content === "last") break;
      }
    }
    if (options.canUseTool) {
      const signal = new AbortController().signal;
      seen.permission = await options.canUseTool("Bash", { command: "ls" }, { signal, toolUseID: "t1", suggestions: [] });
    }
    for (const [event, matchers] of Object.entries(options.hooks || {})) {
      const signal = new AbortController().signal;
      seen[event] = await matchers[0].hooks[0]({ hook_event_name: event }, "t1", { signal });
      seen[`${event} matcher`] = { ...matchers[0], hooks: matchers[0].hooks.length };
    }
    options.stderr?.("a line on stderr");
    // options only the TypeScript SDK has, passed by their own names: a value, and a callback
    if ("tsOnlyValue" in options) seen.tsOnlyValue = options.tsOnlyValue;
    if (options.abortController && options.extraArgs?.["wait-for-abort"] !== undefined) {
      const signal = options.abortController.signal;
      await new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", resolve)));
      seen.aborted = signal.aborted;
    }
    if (options.spawnClaudeCodeProcess) {
      const args = ["-e", "console.log(process.env.SDKPROBE_HOST_SPAWN)"];
      const env = { PATH: process.env.PATH };
      const child = options.spawnClaudeCodeProcess({ command: process.execPath, args, cwd: process.cwd(), env });
      let text = "";
      child.stdout.on("data", (d) => (text += d));
      await new Promise((resolve) => child.on("exit", resolve));
      seen.spawnedMark = text.trim();
    }
    if (options.onTsOnlyAsk) {
      const signal = new AbortController().signal;
      seen.tsOnlyAnswer = await options.onTsOnlyAsk({ kind: "probe" }, { signal, requestId: "r1" });
    }
    if (options.extraArgs?.["exit-code"]) {
      const child = spawn(process.execPath, ["-e", `process.exit(${options.extraArgs["exit-code"]})`]);
      await new Promise((resolve) => child.on("exit", resolve));
    }
    for (const [name, server] of Object.entries(options.mcpServers || {})) {
      const tool = server.instance.tools[0];
      seen[`mcp ${name}`] = {
        type: server.type, name: server.name, version: server.instance.version,
        tool: tool.name, shape: tool.inputSchema, called: await tool.handler({ a: 2, b: 3 }),
        thrown: await tool.handler({ a: 0, b: 0 }).then(() => null, (e) => e.message),
      };
    }
    if (options.sessionStore) {
      const store = options.sessionStore, key = { projectKey: "p", sessionId: "s1" };
      await store.append(key, [{ type: "user", uuid: "u1" }]);
      seen.store = { methods: Object.keys(store).sort(), loaded: await store.load(key),
                     listed: await store.listSessions("p") };
    }
    seen.interrupted = interrupted;
    yield { type: "user", message: { role: "user", content: JSON.stringify(seen) }, parent_tool_use_id: null };
    yield { type: "made_up_type", detail: 1 };
    yield { type: "result", subtype: "success", is_error: false, result: "done", session_id: "s1",
            duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} };
  }
  const gen = run();
  gen.interrupt = async () => { interrupted += 1; };
  gen.setModel = async (m) => ({ model: m });
  gen.reloadPlugins = async (opts) => ({ got: opts ?? null });
  gen.echo = async (...args) => ({ args });
  gen.refuse = async (why) => { throw new Error(why); };
  gen.collect = async (items) => { const got = []; for await (const item of items) got.push(item); return got; };
  return gen;
}

// startup(): a WarmQuery whose query() runs the query above, its options marked `warmedWith`
// (the parameters startup() got); initializeTimeoutMs 1 rejects, as a CLI that never answers.
export async function startup({ options, ...params } = {}) {
  if (params.initializeTimeoutMs === 1) throw new Error("not initialized within 1ms");
  return { query: (prompt) => query({ prompt, options: { ...options, warmedWith: params } }), close() {} };
}

// The SDK's AbortError under a name of its own, as a minified build has it.
class Aborted extends Error {}
export { Aborted as AbortError };

// A class to make and call: what each call gives back tells the calls apart.
export class Tally {
  constructor(start = 0) { this.total = start; }
  add(n) { if (typeof n !== "number") throw new TypeError("not a number"); this.total += n; }
  async read() { return this.total; }
}

export function twice(x) { return x * 2; }

export function tool(name, description, inputSchema, handler) {
  return { name, description, inputSchema, handler };
}

export function createSdkMcpServer({ name, version, tools }) {
  return { type: "sdk", name, instance: { version, tools } };
}

// Session functions: each gives back what it was called with, so a test sees the
// arguments the relay built; "unknown" finds nothing, "throw" throws, "hang" never returns.
export async function getSessionInfo(sessionId, options) {
  if (sessionId === "unknown") return undefined;
  if (sessionId === "throw") throw new TypeError("not a session id");
  return {
    sessionId, summary: JSON.stringify(options ?? null), lastModified: 1, fileSize: 12,
    customTitle: process.env.CLAUDE_CONFIG_DIR ?? null, archived: false,
  };
}

export async function getSessionMessages(sessionId, options) {
  return [{ type: "user", uuid: "u1", session_id: sessionId, message: options ?? null,
            parent_tool_use_id: null, parent_agent_id: null }];
}

export async function forkSession(sessionId, options) {
  return { sessionId: `fork of ${sessionId} ${JSON.stringify(options ?? null)}` };
}

export async function listSubagents(sessionId) {
  if (sessionId === "hang") await new Promise(() => setInterval(() => {}, 1000));
  return [];
}
