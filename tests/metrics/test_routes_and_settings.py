"""Route templates never carry an id; the metrics settings and each cluster process's port;
the probes of a bot that is not ready."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.http import Route
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.metrics as metrics
from bot.client import create_bot
from bot.cluster.shards import ShardPlan
from bot.cluster.supervisor import Child
from bot.config import ConfigError, load_settings
from bot.metrics.discord_http import record_answer, route_template, snowflake_seconds
from bot.metrics.server import MetricsServer
from bot.metrics.settings import MetricsSettings, cluster_environment, load_metrics
from tests.metrics.scrape import get, scrape, value

#: routes the bot uses, as discord.py 2.7 writes them (`discord/http.py`, `webhook/async_.py`),
#: whose parameters are named after the segment before them
TEMPLATES = (
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/channels/{channel_id}/messages"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
    ("GET", "/guilds/{guild_id}/members/{member_id}"),
    ("GET", "/users/{user_id}"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
)

snowflakes = st.integers(min_value=1 << 22, max_value=(1 << 63) - 1)
tokens = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.",
    min_size=20, max_size=120,
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(TEMPLATES), snowflakes, snowflakes, tokens)
def test_a_route_template_is_rebuilt_without_ids_or_tokens(
    route: tuple[str, str], first: int, second: int, token: str
) -> None:
    method, template = route
    values = {"channel_id": first, "guild_id": first, "application_id": first,
              "interaction_id": first, "webhook_id": first, "user_id": first,
              "message_id": second, "member_id": second,
              "interaction_token": token, "webhook_token": token}
    url = Route(method, template, **values).url
    path = url.removeprefix("https://discord.com")
    found = route_template(method, path)
    assert found == f"{method} {template}"
    assert str(first) not in found and str(second) not in found and token not in found


def test_an_emoji_of_a_reaction_is_not_a_label() -> None:
    path = "/api/v10/channels/1234567890123/messages/98765432109876/reactions/%F0%9F%83%8F/@me"
    assert route_template("put", path) == (
        "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
    )


def test_an_accepted_callback_is_one_answer_timed_from_the_interaction_snowflake() -> None:
    recorder = metrics.enable()
    made = 1_800_000_000.0
    interaction = (int(made * 1000) - 1_420_070_400_000) << 22
    assert snowflake_seconds(interaction) == made
    path = f"/api/v10/interactions/{interaction}/tok-en/callback"
    record_answer("POST", path, 204, now=made + 0.4)
    record_answer("POST", path, 400, now=made + 0.5)  # refused: not an answer
    record_answer("PATCH", "/api/v10/webhooks/1/tok-en/messages/@original", 200)  # not one
    assert recorder.registry.get_sample_value("stoppa_interaction_answer_seconds_count") == 1
    assert recorder.registry.get_sample_value("stoppa_interaction_answer_seconds_sum") == (
        pytest.approx(0.4)
    )


def test_metrics_are_off_unless_a_port_is_set() -> None:
    assert load_metrics({}) is None
    assert load_metrics({"STOPPA_METRICS_PORT": " "}) is None
    assert load_metrics({"STOPPA_METRICS_PORT": "9100"}) == MetricsSettings(9100, "127.0.0.1")
    assert load_metrics({"STOPPA_METRICS_PORT": "9100", "STOPPA_METRICS_HOST": "0.0.0.0"}) == (
        MetricsSettings(9100, "0.0.0.0")
    )
    assert load_settings({"DISCORD_TOKEN": "x"}).metrics is None


@pytest.mark.parametrize("bad", ["nine", "0", "70000", "-1", "²", "٩٠٩٠"])
def test_a_bad_port_is_refused_in_one_line_naming_the_variable(bad: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings({"STOPPA_METRICS_PORT": bad})
    message = str(refused.value)
    assert "STOPPA_METRICS_PORT" in message and "\n" not in message and repr(bad) in message


def test_each_cluster_process_gets_the_base_port_plus_its_index() -> None:
    base = {"STOPPA_METRICS_PORT": "9100", "OTHER": "kept"}
    plans = [ShardPlan(6, (0, 1)), ShardPlan(6, (2, 3)), ShardPlan(6, (4, 5))]
    ports = [Child(i, plan).environment(base)["STOPPA_METRICS_PORT"]
             for i, plan in enumerate(plans)]
    assert ports == ["9100", "9101", "9102"]
    assert Child(0, plans[0]).environment(base)["OTHER"] == "kept"
    assert "STOPPA_METRICS_PORT" not in Child(2, plans[2]).environment({})  # off stays off
    assert cluster_environment({"STOPPA_METRICS_PORT": "65535"}, 1) == {}


async def test_before_ready_livez_answers_and_readyz_says_why_not(tmp_path: Path) -> None:
    bot = create_bot(str(tmp_path / "never.db"), sync_commands=False)
    async with bot:  # set up as `bot.start` does, but never logged in nor connected
        server = await MetricsServer.start(bot, MetricsSettings(port=0))
        try:
            assert server.address[0] == "127.0.0.1"
            assert (await get(server.url + "/livez")).status == 200
            ready = await get(server.url + "/readyz")
            assert ready.status == 503
            assert ready.text.splitlines() == ["gateway: not ready yet", "database: not open"]
            found = await scrape(server.url)
            assert value(found, "stoppa_open_tables") == 0
            assert value(found, "stoppa_hands_finished_total") == 0
        finally:
            await server.stop()
