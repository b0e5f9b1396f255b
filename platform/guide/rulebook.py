"""A rule set explained in words, made from the engine (``arena.engine.rules``, ``arena.engine.cards``) and
``docs/rules.md``: nothing here restates a rule.

* the options: every option's value and meaning (``OPTIONS[...].doc``), those that differ from the
  official rules (``classic``) first;
* the cards: the deck's cards with their count, value and what each does, from the table *What each card
  does* of docs/rules.md (its *when* column picks the rows that apply);
* the rules: docs/rules.md with the blocks marked ``<!-- when: ... -->`` kept only where they hold
  (``guide.docs.select``): the scoring of this rule set, its house rules, the decisions taken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from markdown_it import MarkdownIt

from arena.engine.cards import CARDS, DECKS, NUMBER_RANKS, RANK_NAMES, parse_card
from arena.engine.rules import OPTIONS, PRESETS
from arena.engine.rules import RuleSet as EngineRuleSet
from guide import docs

RULES_DOC = "rules"
CARDS_HEADING = "What each card does"
_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class OptionRow:
    """One option of a rule set: its value, its meaning, and whether it differs from the official rules."""

    name: str
    value: Any
    doc: str
    official: Any

    @property
    def changed(self) -> bool:
        """Whether this rule set departs from ``classic`` here."""
        return bool(self.value != self.official)

    @property
    def shown(self) -> str:
        """The value as the command line writes it (``true``, ``same``, ``500``)."""
        return _spec_value(self.value)

    @property
    def official_shown(self) -> str:
        """The official value, written the same way."""
        return _spec_value(self.official)


@dataclass(frozen=True)
class CardRow:
    """A kind of card in the deck: its ranks (``1``–``9`` grouped), name, copies, value and effect."""

    label: str
    name: str
    count: int
    points: str
    effect: SafeString


@dataclass(frozen=True)
class Rulebook:
    """Everything the rule-set page shows."""

    rules: EngineRuleSet
    options: list[OptionRow]
    cards: list[CardRow]
    deck_size: int
    text: SafeString
    spec: str

    @property
    def changed(self) -> list[OptionRow]:
        """The options that differ from the official rules."""
        return [row for row in self.options if row.changed]


def _spec_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def holds(rules: EngineRuleSet, condition: str) -> bool:
    """Whether ``condition`` (``option=value``, ``option!=value``, several joined by ``,``; the word
    ``reference``: never) holds for ``rules``. An unknown option raises ``ValueError``: a typo in
    docs/rules.md must not silently hide a rule (a test renders every preset)."""
    condition = condition.strip()
    if condition == "reference":
        return False
    for part in condition.split(","):
        negate = "!=" in part
        name, _, value = part.partition("!=" if negate else "=")
        name, value = name.strip(), value.strip()
        if name not in OPTIONS or not value:
            raise ValueError(f"bad rule condition {part!r} in docs/rules.md (options: {', '.join(OPTIONS)})")
        if (_spec_value(getattr(rules, name)) == value) == negate:
            return False
    return True


def spec(rules: EngineRuleSet) -> str:
    """The ``--rules`` argument for this rule set: its preset, or the closest preset plus overrides."""
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    base = min(PRESETS.values(), key=lambda p: sum(getattr(p, k) != getattr(rules, k) for k in OPTIONS))
    overrides = [
        f"{k}={_spec_value(getattr(rules, k))}" for k in OPTIONS if getattr(base, k) != getattr(rules, k)
    ]
    return ",".join([base.name, *overrides])


def _card_rows_source() -> list[tuple[list[str], str, str]]:
    """The *What each card does* table of docs/rules.md as (ranks, condition, effect markdown) rows."""
    table = docs.section(RULES_DOC, CARDS_HEADING)
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        codes = _CODE.findall(cells[0])
        if len(codes) == 2 and "–" in cells[0] and all(c.isdigit() for c in codes):
            codes = [str(n) for n in range(int(codes[0]), int(codes[1]) + 1)]
        condition = ",".join(_CODE.findall(cells[1]))
        rows.append((codes, condition, cells[2]))
    return rows


_INLINE = MarkdownIt("commonmark", {"html": False})


def _effect(parts: list[str]) -> SafeString:
    html = " ".join(_INLINE.renderInline(p) for p in parts)
    return SafeString(html)


def cards(rules: EngineRuleSet) -> list[CardRow]:
    """The kinds of card in the rule set's deck with what each does under its options; number cards with
    the same effect share a row."""
    source = _card_rows_source()
    counts: dict[str, int] = {}
    for code, count in DECKS[rules.deck]:
        rank = CARDS[parse_card(code)].rank
        counts[rank] = counts.get(rank, 0) + count
    rows: list[CardRow] = []
    pending: list[tuple[str, int, tuple[str, ...]]] = []  # number ranks waiting to be grouped

    def flush() -> None:
        if pending:
            ranks = [r for r, _, _ in pending]
            label = ranks[0] if len(ranks) == 1 else f"{ranks[0]}–{ranks[-1]}"
            name = "number card" if len(ranks) == 1 else "number cards"
            points = ranks[0] if len(ranks) == 1 else "face value"
            rows.append(
                CardRow(label, name, sum(c for _, c, _ in pending), points, _effect(list(pending[0][2])))
            )
            pending.clear()

    for rank, count in counts.items():
        effects = [text for ranks, cond, text in source if rank in ranks and not cond]
        effects += [text for ranks, cond, text in source if rank in ranks and cond and holds(rules, cond)]
        if rank in NUMBER_RANKS:
            key = tuple(effects)
            if pending and (pending[-1][2] != key or int(pending[-1][0]) + 1 != int(rank)):
                flush()
            pending.append((rank, count, key))
            continue
        flush()
        points = str(next(c.points for c in CARDS if c.rank == rank))
        rows.append(CardRow(rank, RANK_NAMES.get(rank, rank), count, points, _effect(effects)))
    flush()
    return rows


def explain(rules: EngineRuleSet) -> Rulebook:
    """The rule set in words (see the module docstring)."""
    official = PRESETS["classic"]
    options = [
        OptionRow(name, getattr(rules, name), o.doc, getattr(official, name)) for name, o in OPTIONS.items()
    ]
    options.sort(key=lambda row: not row.changed)
    path = docs.doc_path(RULES_DOC)
    text = path.read_text(encoding="utf-8") if path else ""
    text = docs.select(text, lambda cond: holds(rules, cond))
    text = "\n".join(
        line for line in text.splitlines() if not line.startswith("# ")
    )  # the page has its title
    deck_size = sum(count for _code, count in DECKS[rules.deck])
    return Rulebook(rules, options, cards(rules), deck_size, docs.render(text), spec(rules))
