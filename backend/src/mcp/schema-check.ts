/**
 * MCP tool schemas, checked off the server's thread (schema-check-thread.ts) and within deadlines:
 * a server may send schemas that take long to compile, or patterns meant to take forever on a
 * backtracking engine. Size caps come first; what passes them is compiled in the worker, which is
 * terminated when a schema or a call's check runs past its deadline.
 */
import { JobWorker } from "../workers/job-worker.js";
import { SCHEMA_TOO_LARGE } from "./large-message.js";

/** The largest schema a tool may have (real tools' schemas are a few kilobytes). */
export const MAX_SCHEMA_CHARS = 64_000;
/** The schemas of one server, in all: tools past this are left out. */
export const MAX_SERVER_SCHEMA_CHARS = 1_000_000;
const COMPILE_DEADLINE_MS = 2_000;
const VALIDATE_DEADLINE_MS = 1_000;

export type SchemaJob = { kind: "compile"; schema: string } | { kind: "validate"; schema: string; args: unknown };
export type SchemaReply = { problem: string | null } | { problems: ArgumentProblem[] | null };
export interface ArgumentProblem {
  path: string[];
  message: string;
}

/** What is sent to the model and compiled: the schema without `$schema` (servers name drafts Ajv 2020 and some model servers refuse). */
export function plainParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/** The schema's text as it is compiled, or why no tool can use it (not an object schema, too large). */
export function schemaText(schema: unknown): { text: string } | { problem: string } {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return { problem: "its input schema is not an object" };
  const plain = plainParameters(schema as Record<string, unknown>);
  if (typeof plain[SCHEMA_TOO_LARGE] === "number") return { problem: `its input schema is ${plain[SCHEMA_TOO_LARGE]} characters, over ${MAX_SCHEMA_CHARS}` };
  if (plain.type !== "object") return { problem: `its input schema is not an object schema (type ${JSON.stringify(plain.type ?? null)})` };
  const text = JSON.stringify(plain);
  if (text.length > MAX_SCHEMA_CHARS) return { problem: `its input schema is ${text.length} characters, over ${MAX_SCHEMA_CHARS}` };
  return { text };
}

export class SchemaChecker {
  private readonly jobs = new JobWorker<SchemaJob, SchemaReply>({ module: "./schema-check-thread", base: import.meta.url, name: "the schema checker", resourceLimits: { maxOldGenerationSizeMb: 256 } });
  /** Verdicts by schema text, so a server restarting with the same tools is not checked again. */
  private readonly verdicts = new Map<string, string | null>();

  /** Why the schema is not usable, or null when it is. */
  async problem(schema: unknown): Promise<string | null> {
    const text = schemaText(schema);
    if ("problem" in text) return text.problem;
    const known = this.verdicts.get(text.text);
    if (known !== undefined) return known;
    const outcome = await this.jobs.run({ kind: "compile", schema: text.text }, COMPILE_DEADLINE_MS);
    const verdict = outcome.ok ? (outcome.reply as { problem: string | null }).problem : outcome.timedOut ? `its input schema could not be compiled within ${COMPILE_DEADLINE_MS} ms` : `its input schema could not be checked: ${outcome.reason}`;
    this.verdicts.set(text.text, verdict);
    if (this.verdicts.size > 5_000) this.verdicts.delete(this.verdicts.keys().next().value as string);
    return verdict;
  }

  /**
   * Why a call's arguments fail the tool's schema (as `path: message` parts), null when they pass;
   * a check that runs past its deadline is a failure in words the model can act on.
   */
  async argumentProblems(parameters: Record<string, unknown>, args: unknown): Promise<ArgumentProblem[] | null> {
    const text = schemaText(parameters);
    if ("problem" in text) return [{ path: [], message: text.problem }];
    const outcome = await this.jobs.run({ kind: "validate", schema: text.text, args }, VALIDATE_DEADLINE_MS);
    if (outcome.ok) return (outcome.reply as { problems: ArgumentProblem[] | null }).problems;
    return [{ path: [], message: outcome.timedOut ? `the arguments could not be checked against the tool's schema within ${VALIDATE_DEADLINE_MS} ms` : `the arguments could not be checked: ${outcome.reason}` }];
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
