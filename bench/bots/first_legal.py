"""The benchmark bot: a raw protocol bot that answers every request with its first legal action.

It plays series (``"series": true``): after ``match_end`` it waits for ``new_game`` (the referee stops it
after a single game)."""

import json
import sys

write = sys.stdout.write
flush = sys.stdout.flush
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "request":
        write(f'{{"type":"action","id":{message["id"]},"action":"{message["legal"][0]}"}}\n')
        flush()
    elif kind in ("hello", "new_game"):
        write('{"type":"ready","name":"first-legal","series":true}\n')
        flush()
