"""The benchmark bot: a raw protocol bot that answers every request with its first legal action."""

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
    elif kind == "hello":
        write('{"type":"ready","name":"first-legal"}\n')
        flush()
    elif kind == "match_end":
        break
