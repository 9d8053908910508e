"""No secret in any mail: every seat's private results, roles, whispers, Ring chat, Final Cables.

A game is played to a Pouch that hands out private results (the Analyst's reading, the Field
Agents' whisper counts); every seat gets the digest; nothing any one seat alone may see is in
any mail, header or part. The burned player's Final Cable is public (S23) and must be there.
"""

from __future__ import annotations

from deaddrop.engine.station.roles import RINGLEADER, is_ring
from deaddrop.engine.station.views import view
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.station.tabs.roles_text import result_sentence, role_name
from tests.server.mail.helpers import mailer, run_mailer, set_mail, vote_all
from tests.server.mail.smtp import Inbox
from tests.server.station.games.helpers import Table


def _final_cable(codename: str) -> str:
    return f"FINALCABLE{codename}END"


def test_no_mail_holds_anything_only_one_seat_may_see(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    for person in table.people:
        set_mail(table.run_db, person.username)
    state = table.state()
    for seat, person in enumerate(table.people):
        codename = table.codenames[seat]
        assert person.form(table.path("/final-cable"), {"text": _final_cable(codename)}).is_redirect
        targets = view(state, seat)["me"]["options"]["ability_targets"]
        if targets:
            target = next(t for t in targets if t != codename)
            assert person.form(table.path("/operation"), {"target": target}).is_redirect
    whispers = [f"WHISPERTEXT{seat}END" for seat in range(6)]
    for seat, text in enumerate(whispers):
        recipient = table.codenames[(seat + 1) % 6]
        fields = {"recipient": recipient, "text": text}
        assert table.people[seat].form(table.path("/whisper"), fields).is_redirect
    ring = [seat for seat, role in enumerate(table.roles) if is_ring(role)]
    ring_chat = "RINGCHATTEXTEND"
    assert table.people[ring[0]].form(table.path("/chat/ring"), {"text": ring_chat}).is_redirect
    leader = table.seat_with(RINGLEADER)
    vote_all(table, leader)
    table.pouch()

    after = table.state()
    secrets: set[str] = {"CLEAR", "COMPROMISED", ring_chat, *whispers}
    results = 0
    for seat in range(6):
        me = view(after, seat)["me"]
        secrets.add(role_name(me["role"]))
        for day in me["results"]:
            for result in day["results"]:
                secrets.add(result_sentence(result))
                results += 1
        if me["alive"]:
            secrets.add(_final_cable(me["codename"]))  # still private while they live (S32)
    assert results >= 3, "the Pouch should have handed out private results"
    assert run_mailer(table, mailer(table, mail_settings)) == 6
    mails = inbox.all()
    assert len(mails) == 6
    for mail in mails:
        everything = mail.everything()
        leaked = sorted(secret for secret in secrets if secret in everything)
        assert not leaked, f"mail to {mail.to} holds {leaked}"
        # Public: the recalled Ringleader's Final Cable went out with the death (S23).
        assert _final_cable(table.codenames[leader]) in mail.text()
