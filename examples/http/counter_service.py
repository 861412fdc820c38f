#!/usr/bin/env python3
"""A counter service over HTTP/JSON, the system under test of examples/http/counter.ioco.

    POST /reset            -> 204, the total is 0
    POST /inc {"n": k}     -> 200 {"value": total} after adding k, or 409 {"error": "full"}
                              when the total would pass 9 (then it is kept)
    GET  /total            -> 200 {"value": total}

Usage: counter_service.py [--faulty] [--port P]. It listens on 127.0.0.1 (port 0: a free one)
and prints `listening on http://127.0.0.1:PORT` once it accepts requests. `--faulty` refuses a
total of exactly 9 (an off-by-one). It stops by itself after 300 s without a request.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

FAULTY = "--faulty" in sys.argv
PORT = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 0
IDLE_LIMIT = 300.0

state = {"total": 0, "last": time.monotonic()}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        state["last"] = time.monotonic()
        if self.path == "/total":
            self.answer(200, {"value": state["total"]})
        else:
            self.answer(404, {"error": "no such path"})

    def do_POST(self):
        state["last"] = time.monotonic()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path == "/reset":
            state["total"] = 0
            self.answer(204)
        elif self.path == "/inc":
            try:
                n = int(json.loads(raw)["n"])
            except (ValueError, KeyError, TypeError):
                self.answer(400, {"error": "expected {\"n\": int}"})
                return
            limit_ok = state["total"] + n < 9 if FAULTY else state["total"] + n <= 9
            if limit_ok:
                state["total"] += n
                self.answer(200, {"value": state["total"]})
            else:
                self.answer(409, {"error": "full"})
        else:
            self.answer(404, {"error": "no such path"})


def watchdog(server):
    while True:
        time.sleep(1.0)
        if time.monotonic() - state["last"] > IDLE_LIMIT:
            server.shutdown()
            return


def main():
    server = HTTPServer(("127.0.0.1", PORT), Handler)
    threading.Thread(target=watchdog, args=(server,), daemon=True).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
