"""The PostgreSQL half of the store tests: skipped with a how-to without a server, a failure
when CI requires it."""

from __future__ import annotations

import pytest

from .conftest import HOW_TO_RUN, POSTGRES_URL_VAR, postgres_url


def test_without_a_server_postgresql_tests_skip_saying_how_to_run_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(POSTGRES_URL_VAR, raising=False)
    monkeypatch.delenv("STOPPA_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="STOPPA_TEST_POSTGRES_URL") as skipped:
        postgres_url()
    assert str(skipped.value.msg) == HOW_TO_RUN and ".ci/run" in HOW_TO_RUN


def test_when_required_a_missing_server_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(POSTGRES_URL_VAR, raising=False)
    monkeypatch.setenv("STOPPA_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="STOPPA_REQUIRE_POSTGRES=1"):
        postgres_url()


def test_the_url_given_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(POSTGRES_URL_VAR, " postgresql://ci@localhost:5/db ")
    assert postgres_url() == "postgresql://ci@localhost:5/db"
