// What @anthropic-ai/claude-agent-sdk 0.3.333's sdk.d.ts declares of what differs from the other
// excerpted release (comments dropped); the rest is shared.d.ts, read through `export *`.
export * from './shared.js';
import type { BaseHookInput, PreToolUseHookInput, StopFailureHookInput, SubagentStartHookInput } from './shared.js';

export declare const HOOK_EVENTS: readonly ['PreToolUse', 'StopFailure', 'SubagentStart'];

export declare type HookEvent = 'PreToolUse' | 'StopFailure' | 'SubagentStart';

export declare type HookInput = PreToolUseHookInput | StopFailureHookInput | SubagentStartHookInput;

export declare type PermissionDecisionClassification = 'user_temporary' | 'user_permanent' | 'user_reject';
