"""Rule sets: validated, immutable options; presets through one registry; errors that name the option."""

import dataclasses

import pytest

from arena.engine.rules import OPTIONS, PRESETS, RuleSet, parse_rules, preset
from arena.errors import RulesError


def test_the_default_rule_set_is_the_classic_game():
    assert RuleSet() == preset("classic")
    assert preset("classic").options() == {name: option.default for name, option in OPTIONS.items()}


def test_a_rule_set_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset("classic").stacking = "same"  # type: ignore[misc]


def test_options_combine():
    rules = preset("seven-o").replace(jump_in=True, stacking="same")
    assert (rules.seven_o, rules.jump_in, rules.stacking) == (True, True, "same")
    assert rules.name == "custom"
    assert preset("seven-o").jump_in is False


def test_replace_without_a_change_keeps_the_name():
    assert preset("family").replace(draw="keep").name == "family"


def test_from_dict_starts_from_a_preset_and_to_dict_round_trips():
    rules = RuleSet.from_dict({"preset": "no-mercy", "hand_size": 5})
    assert (rules.deck, rules.stacking, rules.hand_size) == ("no-mercy", "any", 5)
    for name, value in PRESETS.items():
        again = RuleSet.from_dict(value.to_dict())
        assert again == value
        assert again.name == name


def test_parse_rules_reads_a_command_line_spec():
    rules = parse_rules("classic, seven_o=true, stacking=same, uno_penalty=4, challenge=off")
    assert (rules.seven_o, rules.stacking, rules.uno_penalty, rules.challenge) == (True, "same", 4, False)
    assert parse_rules("family") is preset("family")


@pytest.mark.parametrize("name", ["clasic", "", "CLASSIC", "no_mercy"])
def test_an_unknown_preset_raises_rules_error_naming_it(name):
    with pytest.raises(RulesError, match=f"unknown rule set {name!r}"):
        preset(name)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"stackin": "same"}, "'stackin'"),
        ({"deck": "108"}, "'deck'"),
        ({"hand_size": 0}, "'hand_size'"),
        ({"hand_size": 11}, "'hand_size'"),
        ({"hand_size": "7"}, "'hand_size'"),
        ({"hand_size": True}, "'hand_size'"),
        ({"challenge": "yes"}, "'challenge'"),
        ({"challenge": 1}, "'challenge'"),
        ({"uno_penalty": 3}, "'uno_penalty'"),
        ({"stacking": "all"}, "'stacking'"),
        ({"scoring": "highest-wins"}, "'scoring'"),
        ({"target": 0}, "'target'"),
        ({"target": 500.0}, "'target'"),
        ({"max_turns": 9}, "'max_turns'"),
        ({"max_hands": 0}, "'max_hands'"),
        ({"min_players": 1}, "'min_players'"),
        ({"max_players": 11}, "'max_players'"),
        ({"first_wild": "shuffle"}, "'first_wild'"),
        ({"first_reverse": "left"}, "'first_reverse'"),
        ({"draw": "two"}, "'draw'"),
        ({"wild_draw_four": "never"}, "'wild_draw_four'"),
        ({"custom_wild": "swap-all"}, "'custom_wild'"),
        ({"seven_o": "true"}, "'seven_o'"),
    ],
)
def test_a_bad_option_raises_rules_error_naming_it(options, named):
    with pytest.raises(RulesError, match=named):
        RuleSet.from_dict(options)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"wild_draw_four": "unrestricted"}, "challenge"),
        ({"custom_wild": "swap"}, "custom_wild"),
        ({"deck": "no-mercy", "custom_wild": "all-draw-one"}, "custom_wild"),
        ({"min_players": 6, "max_players": 5}, "min_players"),
    ],
)
def test_an_impossible_combination_is_rejected_naming_the_options(options, named):
    with pytest.raises(RulesError, match=named):
        RuleSet.from_dict(options)


def test_the_possible_neighbours_of_those_combinations_are_accepted():
    RuleSet.from_dict({"wild_draw_four": "unrestricted", "challenge": False})
    RuleSet.from_dict({"deck": "2018", "custom_wild": "swap"})
    RuleSet.from_dict({"min_players": 5, "max_players": 5})
    RuleSet.from_dict({"hand_size": 10, "max_players": 10})  # 100 cards dealt from 108


def test_from_dict_needs_a_mapping():
    with pytest.raises(RulesError, match="mapping"):
        RuleSet.from_dict(["classic"])  # type: ignore[arg-type]


def test_from_dict_with_an_unknown_preset_names_it():
    with pytest.raises(RulesError, match="'standard'"):
        RuleSet.from_dict({"preset": "standard"})


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("", "empty"),
        (" , ", "empty"),
        ("classic,seven_o", "'seven_o'"),
        ("classic,seven_o=maybe", "'seven_o'"),
        ("classic,hand_size=x", "'hand_size'"),
        ("classic,stackin=same", "'stackin'"),
        ("standard", "'standard'"),
        ("classic,custom_wild=swap", "custom_wild"),
    ],
)
def test_parse_rules_errors_name_what_was_wrong(spec, named):
    with pytest.raises(RulesError, match=named):
        parse_rules(spec)


def test_restricted_cards_are_wild_draw_four_and_in_no_mercy_wild_six():
    assert preset("classic").restricted == frozenset({"W4"})
    assert preset("no-mercy").restricted == frozenset({"W4", "W6"})


def test_every_option_is_documented():
    for option in OPTIONS.values():
        assert option.doc
        assert option.choices or option.bounds
