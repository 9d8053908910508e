"""Practice games are marked wherever games are listed, kept after a guest signs up, and send
no mail and no inactivity marks (issue 14)."""

from __future__ import annotations

from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.mail.deliveries import DeliveryKey
from deaddrop.server.mail.models import DIGEST
from deaddrop.server.mail.recipients import load_recipient
from deaddrop.server.station.host.table_limits import is_inactive
from tests.server.station.games.bot_helpers import run_bots
from tests.server.station.games.helpers import Person, RunDB, Table, game_row, open_table
from tests.server.station.games.practice_helpers import mark_done, practise
from tests.server.visitor import Visitor

MARK = '<span class="practice-mark">Practice</span>'


def test_practice_games_are_marked_practice_in_my_games(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    friends = open_table(host, players, run_db, app)
    table = practise(host, run_db, app)
    home = host.get("/").text
    assert home.count(MARK) == 1  # the practice game, not the game with friends
    line = home[home.index(MARK) :].split("</li>")[0]
    assert table.path("/cable") in line and friends.path() not in line
    assert MARK in host.get(table.path("/roster")).text  # and on the game's own pages
    assert MARK not in host.get(friends.path("/roster")).text


def test_a_guests_practice_game_is_kept_after_they_sign_up(
    client: Visitor, run_db: RunDB, app: Litestar
) -> None:
    guest = Person(client)
    table = practise(guest, run_db, app, level="random")
    run_bots(table)
    mark_done(table)
    assert table.run() == 1
    assert "Sign up" in client.get("/signup").text  # a guest may sign up, not bounced home
    signed = client.sign_up("gwen", "Gwen")
    assert signed.status_code == 200, signed.text
    home = client.get("/").text
    assert "Desk of Gwen" in home and MARK in home and table.path("/cable") in home
    assert client.get(table.path("/cable")).status_code == 200  # the same seat, the same game

    async def host_of(db: AsyncSession) -> User:
        user = await db.get(User, (await game_row(db, table.game_id)).host_id)
        assert user is not None
        return user

    account = run_db(host_of)
    assert account.username == "gwen" and not account.guest
    assert client.log_out().status_code == 200
    assert client.log_in("gwen").status_code == 200 and client.is_logged_in()


def test_a_guests_practice_game_goes_to_the_account_they_log_in_to(
    client: Visitor, alice: Visitor, run_db: RunDB, app: Litestar
) -> None:
    table = practise(Person(client), run_db, app)
    assert client.log_in("alice").status_code == 200 and client.is_logged_in()
    home = client.get("/").text
    assert "Desk of Alice" in home and MARK in home and table.path("/cable") in home
    assert client.get(table.path("/operations")).status_code == 200  # her seat now
    assert "Host tools" in client.get(table.path("/cable")).text  # and the host's desk
    assert alice.get(table.path("/cable")).status_code == 200  # in her other browser too


def test_practice_games_send_no_mail(host: Person, run_db: RunDB, app: Litestar) -> None:
    table = practise(host, run_db, app)

    async def why_not(db: AsyncSession) -> object:
        game = await game_row(db, table.game_id)
        user = await db.get(User, game.host_id)
        assert user is not None
        user.email, user.mail_digests = "host@example.org", True
        await db.commit()
        return await load_recipient(db, DeliveryKey(game.id, 1, user.id, DIGEST))

    assert run_db(why_not) == "a practice game sends no mail"


def _two_idle_days(host: Person, run_db: RunDB, app: Litestar) -> Table | None:
    """A practice game in which the person, only ever marking done, is alive after two
    Pouches (None if the bots burned them or the game ended first)."""
    table = practise(host, run_db, app, players=10, level="random")
    for day in (1, 2):
        run_bots(table)  # (the earlier games' bots too: their days run on by themselves)
        mark_done(table)
        table.run()
        state = table.state()
        assert len(state.history) == day or state.over
    return table if state.alive[0] and not state.over else None


def test_practice_games_give_no_inactivity_marks(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    for _ in range(8):  # the deal is random: a few games until the person survives two days
        table = _two_idle_days(host, run_db, app)
        if table is not None:
            break
    assert table is not None
    history = table.state().history
    assert is_inactive(history, 0, 1)  # at a table of friends this would mark them
    roster = host.get(table.path("/roster")).text
    assert "mark-inactive" not in roster and "Inactive two days running" not in roster


def test_a_guest_cannot_log_in_by_password(client: Visitor, run_db: RunDB, app: Litestar) -> None:
    table: Table = practise(Person(client), run_db, app)

    async def username(db: AsyncSession) -> str:
        user = await db.get(User, (await game_row(db, table.game_id)).host_id)
        assert user is not None
        return user.username

    other = Visitor(client.http.__class__(client.http.app))
    other.http.blocking_portal = client.http.blocking_portal
    refused = other.log_in(run_db(username), "!guest")
    assert refused.status_code == 422 and not other.is_logged_in()
