# The REPL driver that runs inside the sandbox: reads one JSON request per line on stdin, runs the
# code in one persistent namespace, and answers with one framed JSON line on stdout.
import ast, contextlib, io, json, sys, traceback

FRAME = "\x1eMOC-REPL "
namespace = {"__name__": "__main__", "__builtins__": __builtins__}
protocol_in, protocol_out = sys.stdin, sys.stdout


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
    text = "".join(out.parts)
    if out.dropped:
        text += f"\n[output truncated: {out.dropped} more characters]"
    protocol_out.write(FRAME + json.dumps({"id": request["id"], "ok": ok, "output": text}) + "\n")
    protocol_out.flush()
