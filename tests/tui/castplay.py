"""tests/tui/castplay.py: an asciicast v2 recording checked, or played back.

  castplay.py check FILE.cast        the file is asciicast v2 as asciinema reads it: a JSON header with
                                   version 2, width, height, timestamp and env (TERM, SHELL), then one
                                   JSON array a line [time, "o" or "r", text], times in order; valid
                                   UTF-8 throughout. Prints "ok WxH N events, last at T s, resizes: ..."
                                   or one line saying what is wrong, exit 1.
  castplay.py play FILE.cast DONE    writes every "o" event's text to the terminal at once (no delays),
                                   then creates DONE and sleeps, so the screen can be read."""
import json
import os
import sys
import time


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict: a byte that is not UTF-8 fails here
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return json.loads(lines[0]), [json.loads(l) for l in lines[1:]]


def check(path):
    try:
        head, events = load(path)
    except (OSError, UnicodeDecodeError, ValueError, IndexError) as e:
        return "not asciicast: %s" % e
    if not isinstance(head, dict) or head.get("version") != 2:
        return "header: version is not 2: %r" % head
    for k in ("width", "height", "timestamp"):
        if not isinstance(head.get(k), int) or head[k] <= 0:
            return "header: %s is not a positive integer: %r" % (k, head.get(k))
    env = head.get("env")
    if not isinstance(env, dict) or not isinstance(env.get("TERM"), str) or not isinstance(env.get("SHELL"), str):
        return "header: env lacks TERM or SHELL: %r" % env
    last, resizes = 0.0, []
    for i, ev in enumerate(events):
        if not (isinstance(ev, list) and len(ev) == 3 and isinstance(ev[0], (int, float))
                and ev[1] in ("o", "r") and isinstance(ev[2], str)):
            return "event %d is not [time, \"o\"|\"r\", text]: %r" % (i + 1, ev)
        if ev[0] < last:
            return "event %d goes back in time: %s after %s" % (i + 1, ev[0], last)
        last = ev[0]
        if ev[1] == "r":
            w, _, h = ev[2].partition("x")
            if not (w.isdigit() and h.isdigit()):
                return "event %d: a resize that is not COLSxROWS: %r" % (i + 1, ev[2])
            resizes.append(ev[2])
    if not any(ev[1] == "o" for ev in events):
        return "no output event"
    return "ok %dx%d %d events, last at %.3f s, resizes: %s" % (
        head["width"], head["height"], len(events), last, " ".join(resizes) or "none")


def play(path, done):
    _, events = load(path)
    out = sys.stdout.buffer
    for ev in events:
        if ev[1] == "o":
            out.write(ev[2].encode("utf-8"))
    out.flush()
    open(done, "w").close()
    time.sleep(600)


if __name__ == "__main__":
    if sys.argv[1] == "check":
        said = check(sys.argv[2])
        print(said)
        sys.exit(0 if said.startswith("ok ") else 1)
    play(sys.argv[2], sys.argv[3])
