"""The state of a game of Station: frozen, slotted dataclasses (`record`), nothing mutates in
place.

The records a game makes on every save and Pouch (the State, whispers, Pouch records, results,
deaths, rumors) are made by `core.records.builder`, which stores each slot with a plain store:
a frozen dataclass's own __init__ costs about 1,000 machine instructions a field, a quarter of
a Pouch's work. Slots rather than a __dict__ keep a State in 160 bytes rather than 520, and a
Pouch's records with it: less memory to write, read back and free at every Pouch.
"""

from __future__ import annotations

from deaddrop.engine.core.records import record
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.roles import FACTION, MAX_PLAYERS, Faction

ABSTAIN = -1
"""A saved vote for nobody (S21). An unsaved vote (None) also counts as Abstain (S7)."""

Vote = int | None
"""A seat voted for, ABSTAIN, or None when nothing is saved."""


@record
class Seat:
    """One place at the table, fixed for the whole game."""

    index: int
    """The join order (S2): 0 joined first."""
    player: str
    """Who joined in this place (the server's name for them; never shown during play, S3)."""
    codename: str
    """The bird codename the game shows (S3)."""
    role: str
    """The secret role (S1)."""

    @property
    def faction(self) -> Faction:
        """The side this seat plays for."""
        return FACTION[self.role]


@record
class Ability:
    """A role's own Operation aimed at one living player (S9)."""

    target: int
    """The seat it names."""


@record
class Order:
    """The Ring order (S10): who is to be liquidated and by whom."""

    target: int
    """A living non-Ring seat."""
    performer: int
    """A living Ring seat who carries it out (S12)."""


Operation = Ability | Order

ABILITY_ON: tuple[Ability, ...] = tuple([Ability(seat) for seat in range(MAX_PLAYERS)])
"""The Ability aimed at each seat, made once: equal to a new one, and a day saves many."""


@record
class Whisper:
    """A private message (S31); that it was sent is public, its text is not."""

    day: int
    """The day it was sent."""
    sender: int
    """The seat that sent it."""
    recipient: int
    """The seat it went to."""
    text: str
    """Only the two may read it until the game ends."""


@record
class Result:
    """One private result of a Pouch (S19), or a private note (S14, S18)."""

    kind: str
    """analyst, watcher, shadow, field_agent, safehouse_needed or interrogation."""
    target: int
    """The seat the Operation named; for interrogation, the other party of the chat."""
    value: str | int | tuple[int, ...] | None = None
    """The reading, the visitors, the visited seat, the whisper count, or None."""


@record
class Rumor:
    """A Defector rumor in the Morning Cable (S27): colour, not evidence."""

    target: int
    """The seat it names."""
    text: str
    """The flavour line, drawn by the game's RNG."""


@record
class Death:
    """A burned player (S22, S23, S40)."""

    seat: int
    """Who burned."""
    day: int
    """The day whose Pouch (or host removal) burned them."""
    causes: tuple[str, ...]
    """recalled and/or liquidated, in that order; or removed (S40)."""
    final_cable: str
    """Their Final Cable as published with their death (S32)."""


@record
class PouchRecord:
    """What one Pouch locked and resolved: the history behind every Cable and reveal (S26)."""

    day: int
    """The day this Pouch ended."""
    operations: tuple[Operation | None, ...]
    """Each seat's saved Operation at lock time (S7), before the performer swap."""
    order_holder: int | None
    """Who held the Ring order that day (S11)."""
    liquidation: Order | None
    """The locked order, when one was filed and valid at lock (S12)."""
    cancelled: frozenset[int]
    """Seats whose Operation was cancelled (S14, S15)."""
    detained: int | None
    """Who the Interrogator detained (S14)."""
    interrogation: tuple[int, int] | None
    """(Interrogator, detainee) of the chat this Pouch opened for the next day (S14)."""
    living: tuple[int, ...]
    """The seats living at lock: the voters and the L of S21."""
    votes: tuple[Vote, ...]
    """Each seat's vote at lock (None: none saved, counted as Abstain)."""
    tally: tuple[tuple[int, int], ...]
    """(seat, votes) for every seat that received any, by seat."""
    abstain: int
    """Living voters who abstained or saved no vote."""
    threshold: int
    """ceil(L / 3) for the L living players at this Pouch (S21)."""
    recalled: int | None
    """The seat the Tribunal recalled, if any."""
    deaths: tuple[Death, ...]
    """Everyone burned at this Pouch, by seat."""
    rumor: Rumor | None
    """The Defector rumor, if one resolved (S27)."""
    results: tuple[tuple[int, tuple[Result, ...]], ...]
    """Private results per seat, by seat (S19)."""
    whispers: tuple[Whisper, ...]
    """Every whisper of the day, in the order sent (S31)."""
    defector_won: bool
    """Whether this Pouch recalled the Defector (S25)."""
    winner: str | None
    """station or ring when this Pouch ended the game (S24)."""


@record
class State:
    """A whole game at one moment; replaying its action log rebuilds it exactly."""

    seats: tuple[Seat, ...]
    """Every seat in join order (S2)."""
    seed: int
    """The seed the deal and every flavour draw came from (S4)."""
    rng: Rng
    """The generator's state now (S27 rumor lines draw from it)."""
    day: int
    """The current day, from 1 (S6); the last day played once the game is over."""
    alive: tuple[bool, ...]
    """Whether each seat is still living."""
    operations: tuple[Operation | None, ...]
    """Each seat's saved Operation for today (None: No action, S7)."""
    votes: tuple[Vote, ...]
    """Each seat's saved vote for today."""
    whispers: tuple[Whisper, ...]
    """Today's whispers, in the order sent."""
    final_cables: tuple[str, ...]
    """Each seat's current Final Cable (S32)."""
    done: tuple[bool, ...]
    """Who has marked themselves done for today (S41); cleared by every Pouch."""
    order_holder: int | None
    """Who holds the Ring order today (S11); None once the Ring is gone."""
    last_detained: int | None
    """Who the Interrogator detained at the previous Pouch (S9: not again today)."""
    interrogation: tuple[int, int] | None
    """(Interrogator, detainee) of the chat open today (S14)."""
    history: tuple[PouchRecord, ...]
    """Every Pouch so far, in order."""
    deaths: tuple[Death, ...]
    """Everyone burned so far, in the order they burned."""
    winner: str | None
    """station or ring once the game is over (S24)."""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.winner is not None

    @property
    def defector_won(self) -> bool:
        """Whether the Defector has won personally (S25)."""
        return any(record.defector_won for record in self.history)

    def living(self) -> list[int]:
        """Living seats in join order."""
        return [seat for seat, alive in enumerate(self.alive) if alive]

    def seat_by_codename(self, codename: str) -> int | None:
        """The seat with this codename, if any."""
        for seat in self.seats:
            if seat.codename == codename:
                return seat.index
        return None

    def death_of(self, seat: int) -> Death | None:
        """How a seat burned, or None while it lives."""
        for death in self.deaths:
            if death.seat == seat:
                return death
        return None
