#!/usr/bin/env python3
"""Upload a bot version to UNO Arena with your API token (standard library only).

    python scripts/upload_bot.py --url http://127.0.0.1:8000 --token TOKEN --bot mybot bot.py
    python scripts/upload_bot.py --token TOKEN --bot mybot mybot.zip --entry-point mybot/main.py
    python scripts/upload_bot.py --token TOKEN --bot mybot --create --description "My bot" bot.py

The token is on your account page (or set UNO_ARENA_TOKEN). Prints the new version and, with
``--wait``, polls until its smoke test has passed or failed (the log is printed on failure).
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any


class ApiError(RuntimeError):
    """An HTTP error answered by the API, with its decoded body."""


def request(
    url: str, token: str, method: str = "GET", body: bytes | None = None, content_type: str = ""
) -> Any:
    """Send one API request and decode the JSON answer (raises ApiError on HTTP errors)."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(url, data=body, method=method, headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(req, timeout=60) as response:  # noqa: S310
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")
        raise ApiError(f"{method} {url}: HTTP {exc.code}: {detail}") from exc


def multipart(fields: dict[str, str], file_field: str, path: Path) -> tuple[bytes, str]:
    """Encode form fields and one file as multipart/form-data; returns (body, content type)."""
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for name, value in fields.items():
        header = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(f"{header}{value}\r\n".encode())
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{path.name}"\r\n'
        f"Content-Type: {mime}\r\n\r\n".encode()
        + path.read_bytes()
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def find_bot(base: str, token: str, name: str) -> dict[str, Any] | None:
    """The bot called ``name``, looked up through the paginated list."""
    url: str | None = f"{base}/api/bots/"
    while url:
        page = request(url, token)
        for bot in page["results"]:
            if bot["name"] == name:
                return dict(bot)
        url = page.get("next")
    return None


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, upload, optionally wait for the smoke test."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("file", type=Path, help="a .py file or a .zip")
    parser.add_argument("--bot", required=True, help="bot name")
    parser.add_argument("--url", default=os.environ.get("UNO_ARENA_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("UNO_ARENA_TOKEN", ""))
    parser.add_argument("--entry-point", default="", help="for a zip: the file to run")
    parser.add_argument("--create", action="store_true", help="create the bot if it does not exist")
    parser.add_argument("--description", default="")
    parser.add_argument("--no-activate", action="store_true", help="upload without making it active")
    parser.add_argument("--wait", action="store_true", help="wait for the smoke test result")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("an API token is needed (--token or UNO_ARENA_TOKEN); see your account page")
    base = args.url.rstrip("/")
    try:
        bot = find_bot(base, args.token, args.bot)
        if bot is None:
            if not args.create:
                print(f"no bot named {args.bot!r}; use --create to create it", file=sys.stderr)
                return 2
            runs = args.entry_point or str(args.file)
            language = "node" if runs.endswith(".js") else "python"  # the bot's language, by its entry point
            payload = json.dumps({"name": args.bot, "description": args.description, "language": language})
            payload = payload.encode()
            bot = request(f"{base}/api/bots/", args.token, "POST", payload, "application/json")
            print(f"created bot {bot['name']} (id {bot['id']})")
        fields = {"entry_point": args.entry_point, "activate": "false" if args.no_activate else "true"}
        body, content_type = multipart(fields, "file", args.file)
        version = request(f"{base}/api/bots/{bot['id']}/versions/", args.token, "POST", body, content_type)
        print(f"uploaded {bot['name']} v{version['number']} (smoke test: {version['smoke_status']})")
        while args.wait and version["smoke_status"] in ("pending", "running"):
            time.sleep(2)
            version = request(f"{base}/api/versions/{version['id']}/", args.token)
        if args.wait:
            print(f"smoke test: {version['smoke_status']}")
            if version["smoke_status"] != "passed":
                print(version.get("smoke_log") or "", file=sys.stderr)
                return 1
    except ApiError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
