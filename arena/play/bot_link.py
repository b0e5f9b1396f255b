"""One bot's side of a game, as the referee sees it: its connection, its clock and its fault.

A :class:`BotLink` turns everything that can go wrong with a bot (a runner that cannot start it, a
timeout, an exit, a flood, a line that is not JSON, a wrong message) into a :class:`Fault`; once it has a
fault the bot is stopped and every later call is a no-op, so the referee never has to catch anything.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from arena.play import bot_text, protocol
from sandbox.errors import BotExited, BotOutputTooLong, BotTimeout, RunnerRefused, SandboxUnavailable

FAULT_KINDS: Final = (
    "start",  # the runner could not start the bot
    "handshake",  # no valid "ready" in answer to "hello" within the start-up time
    "timeout",  # no answer within the decision time plus the time bank (or it did not read its input)
    "crash",  # it exited with a non-zero status or was killed by a signal (a limit, a bug)
    "exit",  # it exited with status 0 or closed its output during the match
    "invalid_json",  # it wrote a line that is not UTF-8 JSON
    "invalid_message",  # valid JSON, but not the message expected (no action, wrong id, wrong type)
    "illegal_action",  # a well-formed action that is not legal now
    "flood",  # a line longer than the limit (or that much output without a newline)
)
"""Every fault kind, in the order docs/protocol.md explains them."""

INFRASTRUCTURE_ERRORS: Final = (SandboxUnavailable, RunnerRefused)
"""Errors of ``connect()`` that are the machine's fault, not the bot's: they abort the match."""


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a bot was stopped: fault ``kind`` (see :data:`FAULT_KINDS`), the index of the ``decision`` in
    the game's replay at which it happened (-1: before the first decision), a ``message`` (one line), the
    last KBs of the bot's stderr (owner-only), its ``seat`` and the ``game`` of the match (duplicate
    deals). The message and the stderr are :func:`arena.play.bot_text.clean` text."""

    kind: str
    decision: int
    message: str
    stderr_tail: str = ""
    seat: int = -1
    game: int = 0

    def public(self) -> dict[str, Any]:
        """The part that goes into the (public) replay: no stderr."""
        return {
            "kind": self.kind,
            "decision": self.decision,
            "message": self.message,
            "seat": self.seat,
            "game": self.game,
        }


@dataclass(frozen=True)
class LinkLimits:
    """The limits one link enforces (from ``MatchSettings``)."""

    decision_timeout: float
    time_bank: float
    startup_timeout: float
    max_line_bytes: int
    fault_stderr_bytes: int
    stderr_bytes: int = 64 * 1024


@dataclass
class BotLink:
    """A bot playing one seat of one game."""

    seat: int
    name: str
    limits: LinkLimits
    game_index: int = 0
    conn: Any = None
    fault: Fault | None = None
    bank: float = 0.0
    cursor: int = 0
    """Index in ``game.events`` of the first event this bot has not been sent yet."""
    stderr: str = ""
    """The end of the bot's stderr once it is stopped (clean text, at most ``limits.stderr_bytes``)."""
    bot_name: str | None = None
    """The name the bot gave in ``ready`` (validated by :func:`arena.play.protocol.decode_ready`)."""
    think_total: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.bank = self.limits.time_bank
        self._lock = threading.Lock()
        self._abandoned = False
        self.started = threading.Event()
        """Set once :meth:`connect` has a connection or a fault."""

    @property
    def live(self) -> bool:
        """True while the bot plays (started, not faulted)."""
        return self.fault is None and self.conn is not None

    def start(self, connect: Callable[[], Any], hello_line: bytes) -> None:
        """Start the bot and greet it (:meth:`connect`, :meth:`greet`, :meth:`await_ready`)."""
        self.connect(connect)
        self.greet(hello_line)
        self.await_ready(time.monotonic() + self.limits.startup_timeout)

    def connect(self, connect: Callable[[], Any]) -> None:
        """Start the bot; a ``start`` fault on failure. Infrastructure errors propagate. A connection
        that arrives after :meth:`abandon` is closed at once."""
        try:
            conn = connect()
        except INFRASTRUCTURE_ERRORS:
            self.started.set()
            raise
        except Exception as exc:
            with self._lock:
                if not self._abandoned:
                    self._set_fault("start", -1, f"the bot could not be started: {type(exc).__name__}: {exc}")
            self.started.set()
            return
        with self._lock:
            if not self._abandoned:
                self.conn = conn
                self.started.set()
                return
        with contextlib.suppress(Exception):
            conn.close()

    def abandon(self, seconds: float) -> None:
        """Give up on a start that has taken ``seconds`` already (a ``start`` fault)."""
        with self._lock:
            if self.conn is not None or self.fault is not None:
                return
            self._abandoned = True
        self._set_fault("start", -1, f"the runner did not start the bot within {seconds} s")

    def greet(self, hello_line: bytes) -> None:
        """Send ``hello``; a ``handshake`` fault if the bot cannot take it."""
        if self.live:
            try:
                self.conn.send(hello_line)
            except Exception as exc:
                self.stop("handshake", -1, f"it did not take hello: {describe(exc)}")

    def await_ready(self, deadline: float) -> None:
        """Read ``ready`` by ``deadline`` (a ``time.monotonic`` time); a ``handshake`` fault otherwise."""
        if not self.live:
            return
        try:
            line = self.conn.readline(max(0.001, deadline - time.monotonic()))
            if len(line) > self.limits.max_line_bytes:
                raise BotOutputTooLong(self.limits.max_line_bytes)
            self.bot_name = protocol.decode_ready(line)
        except protocol.ProtocolError as exc:
            self.stop("handshake", -1, f"bad answer to hello: {exc}")
        except BotTimeout:
            self.stop("handshake", -1, f"no ready within the start-up time ({self.limits.startup_timeout} s)")
        except Exception as exc:
            self.stop("handshake", -1, f"before it said ready: {describe(exc)}")

    def send(self, line: bytes, decision: int) -> bool:
        """Send a line; on failure the bot is faulted (at ``decision``) and False is returned."""
        if not self.live:
            return False
        try:
            self.conn.send(line)
        except Exception as exc:
            kind, message = classify(exc)
            self.stop(kind, decision, message)
            return False
        return True

    def read_action(self, decision: int, sent_at: float) -> tuple[str | None, float]:
        """Read the answer to request ``decision`` (sent at ``sent_at``, a ``perf_counter`` time).

        Returns (the action string, or None after a fault; the think time in seconds). The time over the
        per-decision allowance comes out of the bank.
        """
        allowance = self.limits.decision_timeout
        try:
            line = self.conn.readline(allowance + self.bank)
            think = time.perf_counter() - sent_at
            if len(line) > self.limits.max_line_bytes:
                raise BotOutputTooLong(self.limits.max_line_bytes)
            action = protocol.decode_action(line, decision)
        except protocol.ProtocolError as exc:
            think = time.perf_counter() - sent_at
            self.stop(exc.kind, decision, str(exc), tell=True)
            return None, think
        except Exception as exc:
            think = time.perf_counter() - sent_at
            kind, message = classify(exc)
            if kind == "timeout":
                message = (
                    f"no answer within {allowance} s plus its time bank of {self.bank:.3f} s "
                    f"({think:.3f} s waited)"
                )
            self.stop(kind, decision, message)
            return None, think
        self.think_total += think
        if think > allowance:
            self.bank = max(0.0, self.bank - (think - allowance))
        return action, think

    def ask(self, line: bytes, decision: int) -> tuple[str | None, float]:
        """Send a request and read its answer (see :meth:`read_action`)."""
        sent_at = time.perf_counter()
        if not self.send(line, decision):
            return None, time.perf_counter() - sent_at
        return self.read_action(decision, sent_at)

    def stop(self, kind: str, decision: int, message: str, tell: bool = False) -> Fault:
        """Fault the bot: optionally tell it why (``error`` message, best effort), stop it, keep its
        stderr."""
        if tell and self.conn is not None:
            with contextlib.suppress(Exception):  # best effort: it is being stopped anyway
                self.conn.send(protocol.encode(protocol.error(kind, message)))
        self.close()
        return self._set_fault(kind, decision, message)

    def _set_fault(self, kind: str, decision: int, message: str) -> Fault:
        if self.fault is None:
            # The message may quote the bot's output (or an error about it): cleaned like everything else.
            text = bot_text.clean(message, bot_text.MAX_MESSAGE_BYTES, one_line=True)
            tail = bot_text.clean(self.stderr, self.limits.fault_stderr_bytes, keep="tail")
            self.fault = Fault(kind, decision, text, tail, self.seat, self.game_index)
        return self.fault

    def close(self) -> None:
        """Stop the bot (idempotent) and keep the tail of its stderr, cleaned (:mod:`arena.play.bot_text`)."""
        conn = self.conn
        if conn is None:
            return
        with contextlib.suppress(Exception):  # close must never stop the referee
            conn.close()
        try:
            self.stderr = bot_text.clean(bot_text.stderr_of(conn), self.limits.stderr_bytes, keep="tail")
        except Exception:
            self.stderr = ""
        self.conn = None


def classify(exc: BaseException) -> tuple[str, str]:
    """The fault kind and message for an error raised by a bot connection."""
    if isinstance(exc, BotTimeout):
        return "timeout", str(exc)
    if isinstance(exc, BotOutputTooLong):
        return "flood", str(exc)
    if isinstance(exc, BotExited):
        code = exc.returncode
        return ("exit" if not code else "crash"), str(exc)
    return "crash", describe(exc)


def describe(exc: BaseException) -> str:
    """A one-line description of an error."""
    if isinstance(exc, BotExited | BotTimeout | BotOutputTooLong):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
