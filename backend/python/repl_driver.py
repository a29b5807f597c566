# The REPL driver that runs inside the sandbox: reads one JSON request per line on stdin, runs the
# code in one persistent namespace, and answers with one JSON line on its own channel (descriptor 4),
# never on stdout: whatever the code prints (a document that holds a "result", say) is only output.
import ast, contextlib, io, json, os, sys, traceback

namespace = {"__name__": "__main__", "__builtins__": __builtins__}
protocol_in = sys.stdin
RESULT_FD = int(sys.argv[sys.argv.index("--result-fd") + 1])
os.set_inheritable(RESULT_FD, False)  # not handed to what the code starts (os.system, exec)
protocol_out = os.fdopen(RESULT_FD, "w", encoding="utf-8")
# In the sandbox /tmp is this REPL's own tmpfs (in the host's memory): it is emptied after each call.
SANDBOXED = "--sandboxed" in sys.argv[1:]


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


def run(code, out):
    tree = ast.parse(code, "<python_repl>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<python_repl>", "exec"), namespace)
    if last is not None:
        value = eval(compile(last, "<python_repl>", "eval"), namespace)
        if value is not None:
            print(repr(value), file=out)


for line in protocol_in:
    request = json.loads(line)
    out = Capped(request["limit"])
    ok = True
    sys.stdin = io.StringIO("")  # input() must not read our protocol
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            run(request["code"], out)
        except SystemExit as exc:
            print(f"SystemExit: {exc.code} (the session keeps running)", file=out)
        except BaseException as exc:
            ok = False
            tb = exc.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != "<python_repl>":
                tb = tb.tb_next
            out.write("".join(traceback.format_exception(type(exc), exc, tb)))
    if SANDBOXED:
        empty_tmp()
    text = "".join(out.parts)
    if out.dropped:
        text += f"\n[output truncated: {out.dropped} more characters]"
    protocol_out.write(json.dumps({"id": request["id"], "ok": ok, "output": text}) + "\n")
    protocol_out.flush()
