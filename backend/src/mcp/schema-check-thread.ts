/**
 * The schema checker's worker thread: MCP tools bring JSON Schema, compiled here with Ajv (the
 * validator the MCP SDK itself uses) to know it is a schema at all, and to check a call's arguments
 * before they go to the server. Everything a server sends is hostile: patterns run on RE2's linear
 * engine (re2js), never on a backtracking one, and the thread as a whole runs under a deadline set
 * by the server's side (schema-check.ts).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { RE2JS } from "re2js";
import { serveJobs } from "../workers/serve-jobs.js";
import type { SchemaJob, SchemaReply } from "./schema-check.js";

/**
 * A pattern as a RegExp-like over RE2 (linear time whatever the pattern). One RE2 cannot read
 * (lookaround, backreferences) is not checked here: the server checks its own arguments.
 */
function re2(pattern: string): { test(text: string): boolean; toString(): string } {
  // Ajv keeps compiled patterns by their toString(): each must name its own pattern.
  const toString = () => `re2:${pattern}`;
  try {
    const compiled = RE2JS.compile(pattern);
    return { test: (text) => compiled.matcher(text).find(), toString };
  } catch {
    return { test: () => true, toString };
  }
}
re2.code = "re2";

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, code: { regExp: re2 } });
/** Compiled schemas by their text, the most recent kept. */
const compiled = new Map<string, ValidateFunction>();
const KEPT = 500;

function compile(text: string): ValidateFunction {
  const known = compiled.get(text);
  if (known) return known;
  const validate = ajv.compile(JSON.parse(text) as object);
  compiled.set(text, validate);
  if (compiled.size > KEPT) compiled.delete(compiled.keys().next().value as string);
  return validate;
}

serveJobs<SchemaJob, SchemaReply>((job) => {
  if (job.kind === "compile") {
    try {
      compile(job.schema);
      return { problem: null };
    } catch (err) {
      return { problem: `its input schema is not valid JSON Schema: ${(err as Error).message}` };
    }
  }
  const validate = compile(job.schema);
  if (validate(job.args)) return { problems: null };
  return { problems: (validate.errors ?? []).map((e) => ({ path: e.instancePath.split("/").filter(Boolean), message: e.message ?? "is invalid" })) };
});
