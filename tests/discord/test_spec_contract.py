"""The spec check itself (`tests.harness.contract`): what it refuses, where it says the error
is, and exactly which deviations from Discord's published spec it allows.

tests/conftest.py runs the same check on every request of every test; these tests show that
it could fail: a misspelt key, a component of the wrong shape, a wrong type in a callback, an
unknown route or query parameter.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.harness.contract import DEVIATIONS, DiscordSpec, Violation
from tests.harness.transport import Call

BASE = "https://discord.com/api/v10"
CHANNEL, MESSAGE, APP = "1234567890123", "2234567890123", "3234567890123"
TOKEN = "aW50ZXJhY3Rpb24.h1.4234567890123"


def call(method: str, path: str, body: Any = None, **query: Any) -> Call:
    """A captured request (as the harness records it) to a concrete API path."""
    return Call(via="http", method=method, path=path, url=BASE + path, params={},
                query=query, json=body, loop_at=0.0)


def check(c: Call) -> list[Violation]:
    return DiscordSpec.load().check(c)


def where(c: Call) -> list[tuple[str, str]]:
    return [(v.where, v.at) for v in check(c)]


def button(**extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Bet", "custom_id": "stoppa:1:bet", **extra}


def callback(body: dict[str, Any]) -> Call:
    return call("POST", f"/interactions/{MESSAGE}/{TOKEN}/callback", body, with_response="1")


def test_a_message_with_buttons_fits() -> None:
    body = {"content": "hi", "components": [{"type": 1, "components": [button()]}]}
    assert check(call("POST", f"/channels/{CHANNEL}/messages", body)) == []


def test_a_misspelt_key_is_named_at_its_path() -> None:
    body = {"content": "hi", "components": [{"type": 1, "components": [button(lable="x")]}]}
    found = check(call("POST", f"/channels/{CHANNEL}/messages", body))
    assert [(v.where, v.at) for v in found] == [("body", "$.components[0].components[0]")]
    assert "'lable' was unexpected" in found[0].message
    assert str(found[0]).startswith("POST /channels/{channel_id}/messages: body $.components")


def test_a_component_is_checked_as_the_shape_its_type_names() -> None:
    long_label = button(label="x" * 81)
    body = {"components": [{"type": 1, "components": [long_label]}]}
    found = check(call("PATCH", f"/channels/{CHANNEL}/messages/{MESSAGE}", body))
    assert [(v.at, v.message) for v in found] == [
        ("$.components[0].components[0].label", f"{'x' * 81!r} is too long")
    ]
    unknown = {"components": [{"type": 99, "content": "?"}]}
    assert where(call("PATCH", f"/channels/{CHANNEL}/messages/{MESSAGE}", unknown)) == [
        ("body", "$.components[0].type")
    ]


def test_an_interaction_callback_is_checked_as_the_shape_its_type_names() -> None:
    modal = {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": [
        {"type": 18, "label": "Amount", "component": {"type": 4, "custom_id": "a", "style": 1}}
    ]}}
    assert where(callback(modal)) == [("body", "$.data.title")]
    message = {"type": 4, "data": {"content": "x", "flags": 64, "colour": 1}}
    assert where(callback(message)) == [("body", "$.data")]
    assert where(callback({"type": 4, "data": {"content": "x", "flags": 64}})) == []


def test_routes_and_query_parameters_must_be_in_the_spec() -> None:
    assert where(call("POST", f"/channels/{CHANNEL}/reminders", {})) == [("route", "-")]
    assert where(call("GET", "/users/@me", None, limit="3")) == [("query", "limit")]
    assert where(call("GET", "/users/abc")) == [("path", "user_id")]
    assert where(callback({"type": 5, "data": {"flags": 64}})) == []


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({"content": "x", "tts": False}, True),  # discord.py writes tts=False in every edit
        ({"content": "x", "tts": True}, False),  # ... but never true: only false is allowed
        ({"embeds": [{"title": "t", "flags": 0}]}, True),  # Embed.to_dict() writes flags
        ({"attachments": [{"id": 0, "filename": "table.png"}]}, True),  # ids as numbers
        ({"attachments": [{"id": -1, "filename": "table.png"}]}, False),
        ({"attachments": [{"id": "0", "filename": "t.png", "name": "t"}]}, False),
    ],
)
def test_exactly_the_listed_deviations_are_allowed(body: dict[str, Any], allowed: bool) -> None:
    found = check(call("PATCH", f"/channels/{CHANNEL}/messages/{MESSAGE}", body))
    assert (found == []) is allowed, found


def test_a_command_option_bound_beyond_int53_is_refused() -> None:
    command = {"name": "verify", "description": "d", "type": 1, "nsfw": False, "options": [
        {"type": 4, "name": "table", "description": "d", "min_value": 1, "max_value": 2**53}
    ]}
    found = check(call("PUT", f"/applications/{APP}/commands", [command]))
    assert [(v.at, v.message) for v in found] == [
        ("$[0].options[0].max_value",
         "9007199254740992 is greater than the maximum of 9007199254740991")
    ]


def test_each_deviation_says_why() -> None:
    assert DEVIATIONS
    assert all(len(d.why) > 40 for d in DEVIATIONS)


# -- the rules across fields (the spec states each field's limit, not these) ----------------
def message_errors(body: dict[str, Any]) -> list[str]:
    return [v.message for v in check(call("POST", f"/channels/{CHANNEL}/messages", body))]


def test_the_embeds_of_a_message_hold_6000_characters_together() -> None:
    embed = {"title": "t" * 256, "description": "d" * 4000,
             "fields": [{"name": "n" * 200, "value": "v" * 1000}]}
    assert message_errors({"embeds": [embed]}) == []
    assert message_errors({"embeds": [embed, embed]}) == [
        "10912 characters of embeds (at most 6000)"
    ]


def test_a_row_holds_five_buttons_or_one_select_and_custom_ids_are_unique() -> None:
    row = [button(custom_id=f"b{i}") for i in range(5)]
    assert message_errors({"components": [{"type": 1, "components": row}]}) == []
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    shared = {"components": [{"type": 1, "components": [select, button(custom_id="x")]}]}
    assert message_errors(shared) == ["a select menu shares its row"]
    twice = {"components": [{"type": 1, "components": [button(), button()]}]}
    assert message_errors(twice) == [
        "custom id 'stoppa:1:bet' used twice (first at $.components[0].components[0])"
    ]
    rows = {"components": [{"type": 1, "components": [button(custom_id=f"r{i}")]}
                           for i in range(6)]}
    assert message_errors(rows) == ["6 rows (at most 5)"]


def test_a_components_v2_message_holds_40_components_and_4000_characters() -> None:
    texts = [{"type": 10, "content": "x" * 100} for _ in range(39)]
    fits = {"flags": 1 << 15, "components": [{"type": 17, "components": texts}]}
    assert message_errors(fits) == []
    too_many = {"flags": 1 << 15, "components": [{"type": 17, "components": [*texts, *texts]}]}
    found = message_errors(too_many)
    assert {"79 components (at most 40)", "7800 characters of text (at most 4000)"} <= set(found)
    with_content = {"flags": 1 << 15, "content": "hi", "components": texts[:1]}
    assert message_errors(with_content) == ["a Components V2 message has no content"]
    in_a_callback = {"type": 4, "data": {"flags": 1 << 15 | 64, "components": [
        {"type": 10, "content": "x" * 4001}]}}
    assert [v.at for v in check(callback(in_a_callback))] == [
        "$.data.components[0].content", "$.data.components"
    ]


def test_a_request_outside_the_spec_fails_the_phase_of_the_test_that_sent_it() -> None:
    """The hook of tests/conftest.py: the calls recorded during a phase are checked when its
    report is made; one that differs turns that report into a failure naming it."""
    from types import SimpleNamespace

    from tests import conftest
    from tests.harness.transport import RECORDED

    def report_after(calls: list[Call]) -> pytest.TestReport:
        RECORDED.extend(calls)
        passed = pytest.TestReport("t.py::test_x", ("t.py", 1, "test_x"), {}, "passed",
                                   None, "call")
        hook = conftest.pytest_runtest_makereport(
            SimpleNamespace(nodeid="t.py::test_x"),  # type: ignore[arg-type]
            SimpleNamespace(when="call"),  # type: ignore[arg-type]
        )
        next(hook)
        with pytest.raises(StopIteration) as done:
            hook.send(passed)
        assert RECORDED == []
        return done.value.value  # type: ignore[no-any-return]

    tally = conftest.Tally
    kept = (tally.requests, tally.violations, tally.seconds, tally.routes.copy())
    try:  # this test's made-up calls stay out of the run's summary
        good = call("POST", f"/channels/{CHANNEL}/messages", {"content": "hi"})
        assert report_after([good]).passed
        bad = call("POST", f"/channels/{CHANNEL}/messages", {"content": "hi", "contnet": "x"})
        failed = report_after([good, bad])
    finally:
        tally.requests, tally.violations, tally.seconds, tally.routes = kept
    assert failed.failed
    assert "POST /channels/{channel_id}/messages: body $: Additional properties" in str(
        failed.longrepr)
    assert "t.py::test_x (call)" in str(failed.longrepr)
