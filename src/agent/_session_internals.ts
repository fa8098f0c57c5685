/**
 * The key to an `AgentSession`'s conversation object (its log, tools and session file), for src/agent and its
 * tests only: front ends read the session's named accessors (`sessionId`, `entries`, `toolNames()`, ...).
 */

/** `session[CONVERSATION_NOW]`: the conversation the session holds now (replaced by `clear()`, `resume()`). */
export const CONVERSATION_NOW: unique symbol = Symbol("AgentSession.conversationNow");
