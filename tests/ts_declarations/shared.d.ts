// The declarations @anthropic-ai/claude-agent-sdk 0.3.333 and 0.3.336 share, excerpted from
// their sdk.d.ts (one or two members of each union, comments dropped); each release's own
// file (0.3.333.d.ts, 0.3.336.d.ts) holds what differs and exports these with `export *`.
import type { PermissionDecisionClassification } from './sdk.js';

export declare class AbortError extends Error {
}

export declare type AgentDefinition = {
    description: string;
    prompt: string;
    maxTurns?: number;
};

export declare type AsyncHookJSONOutput = {
    async: true;
    asyncTimeout?: number;
};

export declare type BaseHookInput = {
    session_id: string;
    transcript_path: string;
    cwd: string;
    permission_mode?: string;
};

export declare type CanUseTool = (toolName: string, input: Record<string, unknown>, options: {
    signal: AbortSignal;
    suggestions?: PermissionUpdate[];
    toolUseID: string;
}) => Promise<PermissionResult>;

export declare function createSdkMcpServer(_options: { name: string }): unknown;

export declare interface HookCallbackMatcher {
    matcher?: string;
    timeout?: number;
}

export declare type HookJSONOutput = AsyncHookJSONOutput | SyncHookJSONOutput;

export declare class InMemorySessionStore {
    append(key: string, entries: unknown[]): Promise<void>;
}

export declare type Options = {
    abortController?: AbortController;
    additionalDirectories?: string[];
    canUseTool?: CanUseTool;
    permissionMode?: PermissionMode;
};

export declare type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto';

export declare type PermissionResult = {
    behavior: 'allow';
    updatedInput?: Record<string, unknown>;
    decisionClassification?: PermissionDecisionClassification;
} | {
    behavior: 'deny';
    message: string;
    decisionClassification?: PermissionDecisionClassification;
};

export declare type PermissionUpdate = {
    type: 'addRules';
    rules: string[];
    behavior: 'allow' | 'deny' | 'ask';
} | {
    type: 'setMode';
    mode: PermissionMode;
};

export declare type PreToolUseHookInput = BaseHookInput & {
    hook_event_name: 'PreToolUse';
    tool_name: string;
    tool_input: unknown;
};

export declare type PreToolUseHookSpecificOutput = {
    hookEventName: 'PreToolUse';
    permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
};

export declare function query(_params: { prompt: string; options?: Options }): Query;

export declare interface Query extends AsyncGenerator<SDKMessage, void> {
    interrupt(): Promise<void>;
    setPermissionMode(mode: PermissionMode): Promise<void>;
    readonly sessionId: string;
}

export declare type SDKAssistantMessage = {
    type: 'assistant';
    message: unknown;
    parent_tool_use_id: string | null;
    uuid: string;
    session_id: string;
};

export declare type SDKMessage = SDKAssistantMessage | SDKResultMessage | SDKSystemMessage;

export declare type SDKResultError = {
    type: 'result';
    subtype: 'error_during_execution' | 'error_max_turns';
    is_error: true;
    session_id: string;
};

export declare type SDKResultMessage = SDKResultSuccess | SDKResultError;

export declare type SDKResultSuccess = {
    type: 'result';
    subtype: 'success';
    result: string;
    session_id: string;
};

export declare type SDKStartupFailureReason = 'org_pin_api_key_conflict' | 'cwd_unavailable';

export declare type SDKSystemMessage = {
    type: 'system';
    subtype: 'init';
    model: string;
    permissionMode: PermissionMode;
    session_id: string;
};

export declare type StopFailureHookInput = BaseHookInput & {
    hook_event_name: 'StopFailure';
    error: string;
};

export declare type SubagentStartHookInput = BaseHookInput & {
    hook_event_name: 'SubagentStart';
    agent_id: string;
    agent_type: string;
};

export declare type SyncHookJSONOutput = {
    continue?: boolean;
    systemMessage?: string;
    hookSpecificOutput?: PreToolUseHookSpecificOutput;
};
