/**
 * The built-in tools and what each is beyond its schema (the schemas are the backend's, in tools/):
 * `gated`: an approval policy governs its calls (`APPROVALS.json`); `writes`: it can change the
 * user's files, so what its calls change is recorded for undo. Every list of tools (the core tools,
 * the gated ones, the writing ones, the approval file's sections) is derived from this table.
 */
export const builtinTools = {
  terminal: { gated: true, writes: true },
  python_repl: { gated: true, writes: true },
  fetch_url: { gated: true, writes: false },
  web_search: { gated: true, writes: false },
  browser: { gated: true, writes: false },
  read_file: { gated: false, writes: false },
  search_knowledge_base: { gated: false, writes: false },
  memory_search: { gated: false, writes: false },
  delegate: { gated: true, writes: true },
  schedule: { gated: true, writes: false },
} as const satisfies Record<string, { gated: boolean; writes: boolean }>;

export type BuiltinToolName = keyof typeof builtinTools;

type GatedName = { [K in BuiltinToolName]: (typeof builtinTools)[K]["gated"] extends true ? K : never }[BuiltinToolName];

export const builtinToolNames = Object.keys(builtinTools) as BuiltinToolName[];

export const isBuiltinTool = (name: string): name is BuiltinToolName => Object.hasOwn(builtinTools, name);

/** The tools approvals govern, in the table's order. */
export const gatedToolNames = builtinToolNames.filter((name): name is GatedName => builtinTools[name].gated) as [GatedName, ...GatedName[]];
