"""Reference snapshots shared by the render tests (and handy for looking at the images)."""

from __future__ import annotations

from bot.render import (
    HandSnapshot,
    LeaderboardSnapshot,
    LeaderRowInfo,
    PaymentInfo,
    PointInfo,
    SeatInfo,
    TableSnapshot,
)

HAND_3 = HandSnapshot(("7d", "6d", "1c"), ("7d", "6d", "1c"), "small_point",
                      PointInfo(("7d", "6d"), 39, "d"), "Niccolò", True, "it")
HAND_13 = HandSnapshot(
    ("7d", "6d", "1c", "5b", "10b", "2s", "3c", "9d", "8s", "4d", "1b", "1d", "7s"),
    ("1b", "1d", "7s"), "small_point", PointInfo(("7s",), 21, "s"), "", False, "en",
)
HAND_STOPPA = HandSnapshot(("10c", "1d", "5s", "1b", "9b"), (), "stoppa", None, "Ann", True, "en")

TABLE_BETTING = TableSnapshot(
    seats=(
        SeatInfo("Alice", 1200, 3, dealer=True, bet=30),
        SeatInfo("Bartholomew the Magnificent of Somewhere Far 🎲", 980, 3, to_act=True),
        SeatInfo("李小龙", 1500, 3, cpu=True, status="passed"),
        SeatInfo("Zoë", 0, 3, status="allin", bet=20),
    ),
    phase="small_point", deal_no=1, deals=4, small_pots=(10, 10, 10, 10), big_pot=200,
    level=30, hand_no=12, lang="en",
)
TABLE_SHOWDOWN = TableSnapshot(
    seats=(
        SeatInfo("Giulia", 820, 10, bet=50, shown=("7d", "6d", "1d"), shown_value=55),
        SeatInfo("Marco", 400, 10, dealer=True, status="passed"),
        SeatInfo("Pia", 0, 10, status="allin", bet=40, shown=("7c", "5c"), shown_value=36),
        SeatInfo("Bot", 2000, 10, status="out", cpu=True),
        SeatInfo("Eva", 700, 10, status="sitting_out"),
    ),
    phase="showdown", deals=3, small_pots=(0, 0, 0), big_pot=200, hand_no=3, lang="it",
    title="Tavolo di #stoppa-sera",
)
TABLE_STOPPA = TableSnapshot(
    seats=tuple(SeatInfo(f"Player {i}", 1000 + 37 * i, 6 - i, dealer=i == 2, to_act=i == 4,
                         cpu=i % 2 == 1) for i in range(6)),
    phase="stoppa",
    stoppa_before=("5c", "6d", "7s", "8b", "9b", "10c", "4d", "5b", "6s", "7c", "8d", "9s",
                   "10d", "2d", "3c", "4b", "5d", "6b", "7d", "8s", "9d", "10b"),
    stoppa_table=(("1c", "1d", "1s"), ("2b",), ("3d",)),
    needed=4, hand_no=40, lang="en",
)
TABLE_OVER = TableSnapshot(
    seats=(
        SeatInfo("Anna", 1556, 1, dealer=True, shown=("6b", "2b"), shown_value=30),
        SeatInfo("Bruno", 810, 0, shown=("10c",), shown_value=10),
        SeatInfo("Carla", 678, 1),
        SeatInfo("Dario", 956, 2),
    ),
    phase="over", stoppa_table=(("2b",), ("3d",), ("4s",), ("5d",)), hand_no=3, lang="en",
    winner="Bruno",
    payments=(PaymentInfo("Carla", "Bruno", 10), PaymentInfo("Dario", "Bruno", 20),
              PaymentInfo("Anna", "Bruno", 10)),
)
LEADERBOARD = LeaderboardSnapshot(
    (LeaderRowInfo(1, "Alice", 12500), LeaderRowInfo(2, "Zoë 🎲", 9800),
     LeaderRowInfo(3, "李", 7000), LeaderRowInfo(4, "Bob", -300)),
    by="net", server="Card Club", page=1, lang="en",
)
