# The REPL driver that runs inside the sandbox: reads one JSON request per line on stdin, runs the
# code in one persistent namespace, and answers with one JSON line on its own channel (descriptor
# given by --result-fd), never on stdout: whatever the code prints (a document that holds a
# "result", say) is only output.
#
# In the sandbox (--sandboxed) the process that answers never runs the code. It is a keeper: a
# worker process holds the namespace and runs each call; after a call the worker forks a copy of
# itself (fork keeps only the calling thread, so the copy has the state and none of the threads the
# code started) and exits, taking those threads with it; the copy reports once its parent is gone.
# The keeper then stops every other process the call left in the sandbox and empties /tmp. (The
# keeper must outlive every call: bubblewrap ends the sandbox when its first process exits.)
import ast, contextlib, ctypes, io, json, os, signal, sys, time, traceback

RESULT_FD = int(sys.argv[sys.argv.index("--result-fd") + 1])
SANDBOXED = "--sandboxed" in sys.argv[1:]
os.set_inheritable(RESULT_FD, False)  # not handed to what the code starts (os.system, exec)
protocol_in = sys.stdin
protocol_out = os.fdopen(RESULT_FD, "w", encoding="utf-8")


class Capped(io.TextIOBase):
    def __init__(self, limit):
        self.parts, self.kept, self.dropped, self.limit = [], 0, 0, limit

    def writable(self):
        return True

    def write(self, text):
        room = self.limit - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)


def run(code, out, namespace):
    tree = ast.parse(code, "<python_repl>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<python_repl>", "exec"), namespace)
    if last is not None:
        value = eval(compile(last, "<python_repl>", "eval"), namespace)
        if value is not None:
            print(repr(value), file=out)


def call(request, namespace):
    """Runs one request's code; returns (ok, output)."""
    out = Capped(request["limit"])
    ok = True
    sys.stdin = io.StringIO("")  # input() reads nothing
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            run(request["code"], out, namespace)
        except SystemExit as exc:
            print(f"SystemExit: {exc.code} (the session keeps running)", file=out)
        except BaseException as exc:
            ok = False
            tb = exc.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != "<python_repl>":
                tb = tb.tb_next
            out.write("".join(traceback.format_exception(type(exc), exc, tb)))
    text = "".join(out.parts)
    if out.dropped:
        text += f"\n[output truncated: {out.dropped} more characters]"
    return ok, text


def answer(reply):
    protocol_out.write(json.dumps(reply) + "\n")
    protocol_out.flush()


def empty_tmp():
    """Empties /tmp, never crossing into another filesystem: when the data root lives under /tmp,
    its folders are bound below it, and they are the user's files."""
    tmp_dev = os.lstat("/tmp").st_dev

    def clear(folder):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
                if info.st_dev != tmp_dev:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    clear(entry.path)
                    os.rmdir(entry.path)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass

    clear("/tmp")


# ---- in-process (no sandbox: the code runs in this process, as before) ----

def serve_in_process():
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    for line in protocol_in:
        request = json.loads(line)
        ok, text = call(request, namespace)
        answer({"id": request["id"], "ok": ok, "output": text})


# ---- keeper and worker (in the sandbox) ----

class Lines:
    """The lines of a raw descriptor (no buffered file object: nothing shared across forks). What one read
    brings past a line's end is kept for the next line: garbage the code wrote and the answer after it can
    arrive in one read, and each is judged alone."""

    def __init__(self, fd, limit=64 * 1024 * 1024):
        self.fd, self.limit, self.pending = fd, limit, bytearray()

    def next(self):
        """The next line, or None at the descriptor's end (or past the limit without a line's end)."""
        while b"\n" not in self.pending:
            if len(self.pending) > self.limit:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.pending += chunk
        end = self.pending.index(b"\n") + 1
        line = bytes(self.pending[:end])
        del self.pending[:end]
        return line


def worker(cmd_fd, done_fd):
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    pending = b""
    while True:
        while b"\n" not in pending:
            chunk = os.read(cmd_fd, 65536)
            if not chunk:
                os._exit(0)
            pending += chunk
        line, pending = pending.split(b"\n", 1)
        request = json.loads(line)
        ok, text = call(request, namespace)
        # Hand the state to a copy with only this thread; this process, and every thread the code
        # started, ends here. The copy answers once it is on its own.
        parent = os.getpid()
        if os.fork() != 0:
            os._exit(0)
        while os.getppid() == parent:
            time.sleep(0.0002)
        # The leading newline ends whatever line the code left unfinished on this descriptor.
        reply = b"\n" + json.dumps({"id": request["id"], "ok": ok, "output": text, "pid": os.getpid()}).encode() + b"\n"
        view = memoryview(reply)
        while view:
            view = view[os.write(done_fd, view):]


def start_worker():
    cmd_r, cmd_w = os.pipe()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(cmd_w)
        os.close(done_r)
        os.close(RESULT_FD)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the requests are the keeper's
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the code's subprocess.wait() needs its children
        worker(cmd_r, done_w)
    os.close(cmd_r)
    os.close(done_w)
    return cmd_w, done_r


def stop_others(keep):
    """Every process of the sandbox but pid 1 (bubblewrap's), the keeper and the worker: what a call left running."""
    killed = set()
    # A process can fork between the look at /proc and its kill (a double fork in flight): look again
    # until a look finds nothing left, a few times at most.
    for _round in range(5):
        found = False
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in keep:
                continue
            try:
                with open(f"/proc/{name}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue  # already ended (the worker that handed over), waiting to be reaped
                os.kill(int(name), signal.SIGKILL)
                killed.add(int(name))
                found = True
            except OSError:
                pass
        if not found:
            break
    return len(killed)


def serve_as_keeper():
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come here
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # and are reaped at once
    cmd, done = start_worker()
    replies = Lines(done)
    for line in protocol_in:
        request = json.loads(line)
        try:
            os.write(cmd, line.encode() if isinstance(line, str) else line)
        except OSError:
            pass
        # The worker's answer for this request; lines that are not one (the code can write on the worker's
        # descriptors too) are passed over.
        reply = None
        while reply is None:
            raw = replies.next()
            if raw is None:
                break
            try:
                candidate = json.loads(raw)
            except ValueError:
                continue
            if isinstance(candidate, dict) and candidate.get("id") == request["id"] and isinstance(candidate.get("output"), str):
                reply = candidate
        if reply is None:
            # The worker died (os._exit, a signal) or spoke out of turn: start again, state lost.
            for fd in (cmd, done):
                try:
                    os.close(fd)
                except OSError:
                    pass
            stop_others({1, os.getpid()})
            cmd, done = start_worker()
            replies = Lines(done)
            reply = {"id": request["id"], "ok": False, "output": "Error: the Python process ended during the call; its state was lost.", "lost": True}
        worker_pid = reply.pop("pid", None)
        reply["stopped"] = stop_others({1, os.getpid(), worker_pid})
        empty_tmp()
        answer(reply)


if SANDBOXED:
    serve_as_keeper()
else:
    serve_in_process()
