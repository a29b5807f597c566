/**
 * The knowledge base at scale, through the real server process (the built `dist/main.js`, offline
 * embedder): a generated corpus of Markdown files (default ~200,000 chunks: ~8,400 files of ~26 KB;
 * `--chunks N` to change it) indexed from empty, then one small file changed, then a restart.
 * Prints: time to index from empty, peak RSS of the server (its worker threads are in the process),
 * the slowest /api/health while indexing, searches sent while indexing, query p50/p95 (k=10), bytes
 * the server wrote and time until searchable for the one-file change, and restart-to-first-search.
 *
 * Run: npx -y pnpm@10 bench:knowledge-scale [--chunks 50000] [--store postgres] (KEEP_ROOT=1 keeps the
 * generated data root; PROFILE_DIR=dir writes CPU profiles of the server's threads there). `--store postgres`: the index on PostgreSQL, KNOWLEDGE_STORE_URL when it is set,
 * else a PGlite engine with pgvector started here (PostgreSQL as WebAssembly in one process: slower
 * than a server; its own RSS and writes are printed apart from the workbench's). A server on this
 * machine (the URL's host 127.0.0.1 or localhost) is measured too: the PSS and writes of its processes
 * (`postgres`, read from /proc; needs the right to read them, e.g. root), and the database's size.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { type PostgresEngine, startPostgresEngine } from "../test-support/postgres-engine.js";
import { documentText, zipfWord } from "./zipf-corpus.js";

const arg = process.argv.indexOf("--chunks");
const TARGET_CHUNKS = arg > 0 ? Number(process.argv[arg + 1]) : 200_000;
const CHUNKS_PER_FILE = 24;
const storeArg = process.argv.indexOf("--store");
const POSTGRES = storeArg > 0 && process.argv[storeArg + 1] === "postgres";
const FILES = Math.max(1, Math.round(TARGET_CHUNKS / CHUNKS_PER_FILE));
const main = resolve(import.meta.dirname, "..", "dist", "main.js");

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  // Children (none expected for indexing, counted if there are).
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "")).trim().split(/\s+/).filter(Boolean);
  let total = kb * 1024;
  for (const child of children) total += await rssOf(Number(child));
  return total;
}
/** A PostgreSQL server on this machine: its processes' proportional memory (shared buffers counted once) and bytes written. */
async function postgresProcesses(): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    if ((await readFile(`/proc/${name}/comm`, "utf8").catch(() => "")).trim() === "postgres") pids.push(Number(name));
  }
  return pids;
}
async function serverPss(): Promise<number> {
  let total = 0;
  for (const pid of await postgresProcesses()) total += Number(/Pss:\s+(\d+)/.exec(await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => ""))?.[1] ?? 0) * 1024;
  return total;
}
async function serverWritten(): Promise<number> {
  let total = 0;
  for (const pid of await postgresProcesses()) total += await writtenBytes(pid).catch(() => 0);
  return total;
}
async function writtenBytes(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, "utf8");
  return Number(/write_bytes:\s+(\d+)/.exec(io)![1]);
}

async function startServer(root: string, port: number): Promise<{ child: ChildProcess; startedAt: number; url: string }> {
  const startedAt = performance.now();
  // PROFILE_DIR=dir: a CPU profile of every thread of the server (the indexer's too) written there at its exit.
  const profile = process.env.PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, main], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", WORKBENCH_ROOT: root, LOG_LEVEL: "warn", OPENAI_API_KEY: "", EMBEDDING_MODEL: "", ...storeEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { child, startedAt, url: `http://127.0.0.1:${port}` };
}
async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
}
const getJson = async <T>(url: string): Promise<{ status: number; body: T; ms: number }> => {
  const t0 = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as T;
  return { status: response.status, body, ms: performance.now() - t0 };
};
type Status = { documents: number; chunks: number; indexing: { running: boolean; done: number; total: number } };
type Search = { indexing: boolean; results: Array<{ source: string }> };

const root = await mkdtemp(join(tmpdir(), "moc-kscale-"));
const engine: PostgresEngine | null = POSTGRES && !process.env.KNOWLEDGE_STORE_URL ? await startPostgresEngine({ vector: true }) : null;
const localServer = POSTGRES && !engine && ["127.0.0.1", "localhost"].includes(new URL(process.env.KNOWLEDGE_STORE_URL!).hostname);
const storeEnv: Record<string, string> = POSTGRES ? { KNOWLEDGE_STORE_URL: process.env.KNOWLEDGE_STORE_URL ?? engine!.url(), KNOWLEDGE_COLLECTION: "scale_bench" } : { KNOWLEDGE_STORE_URL: "" };
try {
  await mkdir(join(root, "knowledge", "corpus"), { recursive: true });
  console.log(`generating ${FILES} files (~${FILES * CHUNKS_PER_FILE} chunks) under ${root}`);
  for (let i = 0; i < FILES; i++) await writeFile(join(root, "knowledge", "corpus", `doc-${String(i).padStart(5, "0")}.md`), documentText(i));

  const port = await freePort();
  let server = await startServer(root, port);
  let peakRss = 0;
  let enginePeakRss = 0;
  let serverPeakPss = 0;
  let healthMax = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakRss = Math.max(peakRss, await rssOf(server.child.pid!));
      if (engine) enginePeakRss = Math.max(enginePeakRss, await rssOf(engine.pid));
      if (localServer) serverPeakPss = Math.max(serverPeakPss, await serverPss());
      await sleep(200);
    }
  })();
  // Health, polled every 100 ms from the first moment it answers.
  for (;;) {
    try {
      await getJson(`${server.url}/api/health`);
      break;
    } catch {
      await sleep(50);
    }
  }
  const indexStart = server.startedAt;
  const whileIndexing: number[] = [];
  let saidIndexing = 0;
  let firstStatus: Status | null = null;
  let done: Status;
  for (;;) {
    const health = await getJson(`${server.url}/api/health`);
    healthMax = Math.max(healthMax, health.ms);
    const status = (await getJson<Status>(`${server.url}/api/knowledge/status`)).body;
    firstStatus ??= status;
    if (!status.indexing.running && status.documents >= FILES) {
      done = status;
      break;
    }
    if (status.indexing.done > 0 && whileIndexing.length < 20) {
      const search = await getJson<Search>(`${server.url}/api/knowledge/search?q=${encodeURIComponent(`${zipfWord()} ${zipfWord()} ${zipfWord()}`)}&k=10`);
      whileIndexing.push(search.ms);
      if (search.body.indexing) saidIndexing++;
    }
    await sleep(100);
  }
  const indexMs = performance.now() - indexStart;
  const writtenIndexing = await writtenBytes(server.child.pid!);
  sampling = false;
  await sampler;

  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const q = Array.from({ length: 3 + (i % 3) }, zipfWord).join(" ");
    latencies.push((await getJson(`${server.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=10`)).ms);
  }

  // One small file changed: bytes the server wrote to disk, and time until the change is found.
  const small = join(root, "knowledge", "small-note.md");
  await writeFile(small, "# A small note\n\nNothing much here yet.\n");
  await (async () => {
    for (;;) {
      const found = (await getJson<Search>(`${server.url}/api/knowledge/search?q=nothing+much+here&k=10`)).body;
      if (found.results.some((r) => r.source === "knowledge/small-note.md")) return;
      await sleep(100);
    }
  })();
  await sleep(1500);
  const writtenBefore = await writtenBytes(server.child.pid!);
  const engineWrittenBefore = engine ? await writtenBytes(engine.pid) : localServer ? await serverWritten() : 0;
  const token = `zqxmarker${Date.now()}`;
  const changedAt = performance.now();
  await appendFile(small, `\nThe marker word is ${token}.\n`);
  let searchableMs = NaN;
  for (;;) {
    const found = (await getJson<Search>(`${server.url}/api/knowledge/search?q=${token}&k=3`)).body;
    if (found.results.some((r) => r.source === "knowledge/small-note.md")) {
      searchableMs = performance.now() - changedAt;
      break;
    }
    await sleep(20);
  }
  await sleep(3000); // the WAL's checkpoint, if one falls due, counts too
  const writtenForChange = (await writtenBytes(server.child.pid!)) - writtenBefore;
  const engineWrittenForChange = engine ? (await writtenBytes(engine.pid)) - engineWrittenBefore : localServer ? (await serverWritten()) - engineWrittenBefore : 0;

  // Restart: the first search that answers with results, timed from the process's start (three restarts).
  const restarts: number[] = [];
  for (let run = 0; run < 3; run++) {
    await stopServer(server.child);
    server = await startServer(root, port);
    for (;;) {
      try {
        const found = await getJson<Search>(`${server.url}/api/knowledge/search?q=${token}&k=3`);
        if (found.status === 200 && found.body.results.length > 0) {
          restarts.push(performance.now() - server.startedAt);
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
  }
  await stopServer(server.child);

  console.log(`\nstore: ${POSTGRES ? `PostgreSQL${engine ? " (PGlite engine with pgvector, its own process)" : localServer ? " (a server on this machine)" : ""}` : "SQLite (embedded)"}`);
  if (engine) console.log(`peak engine RSS while indexing: ${mb(enginePeakRss)}`);
  if (localServer) {
    console.log(`peak server memory while indexing (PSS of its processes): ${mb(serverPeakPss)}`);
    const client = new pg.Client({ connectionString: process.env.KNOWLEDGE_STORE_URL });
    await client.connect();
    const size = await client.query("SELECT pg_database_size(current_database()) AS bytes");
    console.log(`database size: ${mb(Number(size.rows[0].bytes))}`);
    await client.end();
  }
  console.log(`corpus: ${FILES} files, ${done!.chunks} chunks (first status: running ${firstStatus?.indexing.running})`);
  console.log(`index from empty: ${(indexMs / 1000).toFixed(1)} s (from the process's start)`);
  console.log(`peak server RSS while indexing: ${mb(peakRss)}; written by the server from its start to the end of indexing: ${mb(writtenIndexing)}`);
  console.log(`/api/health while indexing: max ${healthMax.toFixed(1)} ms`);
  console.log(`searches while indexing: ${whileIndexing.length}, p50 ${pct(whileIndexing, 50).toFixed(1)} ms, max ${Math.max(...whileIndexing).toFixed(1)} ms, ${saidIndexing} said indexing: true`);
  console.log(`query (k=10, 200 queries of 3-5 words): p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms`);
  const storeWrote = engine ? ` (${mb(engineWrittenForChange)} by the engine)` : localServer ? ` (${mb(engineWrittenForChange)} by the database server)` : "";
  console.log(`one small file changed: ${mb(writtenForChange)} written by the workbench${storeWrote}, searchable after ${searchableMs.toFixed(0)} ms`);
  console.log(`restart to first search with results: ${restarts.map((ms) => ms.toFixed(0)).join(", ")} ms (three restarts)`);
} finally {
  await engine?.close();
  if (process.env.KEEP_ROOT === "1") console.log(`data root kept: ${root}`);
  else await rm(root, { recursive: true, force: true });
}
