"""Each card's event as one function named after the card; its docstring is the card's effect in
the project's words (text.py words the same function: a test holds the two equal).

A function calls the steps of `steps.Effect`; `events.Run` resolves them one at a time. A card kept
for Election Day (its persistence `election_day`) runs its function there, not when it is played.
Rest-of-turn and prevention effects are rules changes (modifiers.py, debate.py, play.py): their
cards' functions only name who is bound, or nothing.
"""

from __future__ import annotations

from .data import CARDS
from .steps import (
    ANY,
    CHOSEN,
    CHOSEN_REGION,
    CHOSEN_STATE,
    EMPTY,
    FIFTY,
    OPP,
    TOKEN,
    CardEvent,
    Effect,
    K,
    P,
    X,
    leader,
    media_leader,
    regions,
    registry,
    state_leader,
    states,
    worth,
)

EVENTS: dict[int, CardEvent] = {}
card = registry(EVENTS)
HELD = frozenset(c for c, info in CARDS.items() if info.persistent == "election_day")  # run on Election Day


@card(1)
def greater_houston_ministerial_association(e: Effect) -> None:
    """Kennedy's candidate token moves to Texas free; Kennedy gains 1 momentum; Kennedy adds 5 cubes of
    support in any states, at most 1 per state. From now on these events cannot be played: #9 Baptist
    Ministers, #44 Puerto Rican Bishops, #73 Norman Vincent Peale."""
    e.token(K, "TX")
    e.momentum(K, 1)
    e.support(K, 5, 1, ANY)


@card(2)
def nixons_knee(e: Effect) -> None:
    """Nixon's candidate token moves to Maryland free. For the rest of the turn Nixon pays 1 momentum
    for each campaign action."""
    e.token(X, "MD")


@card(3)
def gallup_poll(e: Effect) -> None:
    """The player reorders the issue track as they like."""
    e.reorder_track(P)


@card(4)
def citizens_for_nixon_lodge(e: Effect) -> None:
    """For the rest of the turn Nixon's cards are worth 1 more CP (at most 5)."""


@card(5)
def volunteers(e: Effect) -> None:
    """The player gains 1 momentum."""
    e.momentum(P, 1)


@card(6)
def new_england(e: Effect) -> None:
    """Kennedy adds 5 cubes of support in Connecticut, Massachusetts, Maine, New York, Rhode Island or
    Vermont, at most 2 per state."""
    e.support(K, 5, 2, states("CT", "MA", "ME", "NY", "RI", "VT"))


@card(7)
def late_returns_from_cook_county(e: Effect) -> None:
    """Held until Election Day, then: Kennedy makes 5 support checks in Illinois."""
    e.checks(K, 5, "IL")


@card(8)
def soviet_economic_growth(e: Effect) -> None:
    """Economy moves up 1 place on the issue track; whoever leads Economy adds 1 cube of support in New
    York."""
    e.issue_up("Economy", 1)
    e.support(leader("Economy"), 1, 1, states("NY"))


@card(9)
def baptist_ministers(e: Effect) -> None:
    """Nixon removes 5 cubes of Kennedy's support in the South and the Midwest, at most 2 per state."""
    e.remove(X, K, 5, 2, regions("South", "Midwest"))


@card(10)
def swing_state(e: Effect) -> None:
    """The player chooses a state the opponent leads without carrying it; the player adds 5 cubes of
    support in the chosen state; the player's candidate token moves to the chosen state free."""
    e.pick_state(P, "swing")
    e.support(P, 5, 5, CHOSEN_STATE)
    e.token(P, CHOSEN)


@card(11)
def sputnik_v(e: Effect) -> None:
    """Defense moves up 1 place on the issue track; whoever leads Defense adds 3 cubes of support in any
    states, at most 1 per state."""
    e.issue_up("Defense", 1)
    e.support(leader("Defense"), 3, 1, ANY)


@card(12)
def southern_strategy(e: Effect) -> None:
    """Nixon adds 5 cubes of support in the South, at most 2 per state; Kennedy gains 1 cube on Civil
    Rights."""
    e.support(X, 5, 2, regions("South"))
    e.issue(K, "Civil Rights", 1)


@card(13)
def nikita_kruschev(e: Effect) -> None:
    """Whoever leads Defense gains 1 momentum; whoever leads Defense adds 3 cubes of support in any
    states, at most 1 per state."""
    e.momentum(leader("Defense"), 1)
    e.support(leader("Defense"), 3, 1, ANY)


@card(14)
def gathering_momentum_in_the_south(e: Effect) -> None:
    """Whoever leads more states in the South gains 1 momentum and a cube in each of its states where
    nobody has support."""
    e.gathering_momentum("South")


@card(15)
def gathering_momentum_in_the_east(e: Effect) -> None:
    """Whoever leads more states in the East gains 1 momentum and a cube in each of its states where
    nobody has support."""
    e.gathering_momentum("East")


@card(16)
def gathering_momentum_in_the_midwest(e: Effect) -> None:
    """Whoever leads more states in the Midwest gains 1 momentum and a cube in each of its states where
    nobody has support."""
    e.gathering_momentum("Midwest")


@card(17)
def gathering_momentum_in_the_west(e: Effect) -> None:
    """Whoever leads more states in the West gains 1 momentum and a cube in each of its states where
    nobody has support."""
    e.gathering_momentum("West")


@card(18)
def dwight_d_eisenhower(e: Effect) -> None:
    """Nixon adds 7 cubes of support in any states, at most 1 per state. From now on these events cannot
    be played: #74 Eisenhower's Silence."""
    e.support(X, 7, 1, ANY)


@card(19)
def old_south(e: Effect) -> None:
    """Whoever leads Civil Rights removes 5 cubes of their own support in the South. For the rest of the
    turn that candidate may not campaign in the South."""
    e.remove(leader("Civil Rights"), leader("Civil Rights"), 5, 5, regions("South"))
    e.binds(leader("Civil Rights"))


@card(20)
def nixon_egged_in_michigan(e: Effect) -> None:
    """Nixon's candidate token moves to Michigan free; Nixon loses 1 cube of support in Michigan. For
    the rest of the turn Nixon may not campaign in the Midwest."""
    e.token(X, "MI")
    e.lose(X, 1, "MI")


@card(21)
def fifty_stars(e: Effect) -> None:
    """Whoever has more cubes in Alaska and Hawaii together adds 5 cubes of support in any states, at
    most 1 per state."""
    e.support(FIFTY, 5, 1, ANY)


@card(22)
def gaffe(e: Effect) -> None:
    """The opponent loses 1 momentum; the opponent loses 3 cubes of support in the state where their
    candidate token stands."""
    e.momentum(OPP, -1)
    e.lose(OPP, 3, TOKEN)


@card(23)
def martin_luther_king_arrested(e: Effect) -> None:
    """Civil Rights moves up 1 place on the issue track; the player gains 3 cubes on Civil Rights."""
    e.issue_up("Civil Rights", 1)
    e.issue(P, "Civil Rights", 3)


@card(24)
def east_harlem_pledge(e: Effect) -> None:
    """Nixon loses 1 cube on Civil Rights; Kennedy removes 5 cubes of Nixon's support in the South, at
    most 2 per state."""
    e.issue(X, "Civil Rights", -1)
    e.remove(K, X, 5, 2, regions("South"))


@card(25)
def civil_rights_act_1960(e: Effect) -> None:
    """Civil Rights moves up 1 place on the issue track; Nixon gains 1 cube on Civil Rights."""
    e.issue_up("Civil Rights", 1)
    e.issue(X, "Civil Rights", 1)


@card(26)
def ken_air(e: Effect) -> None:
    """For the rest of the turn Kennedy campaigns with 1 more CP per card and travels free."""


@card(27)
def nelson_rockefeller(e: Effect) -> None:
    """Nixon adds 1 cube of support in New York; Nixon may take a card from the discard pile into their
    hand."""
    e.support(X, 1, 1, states("NY"))
    e.retrieve(X, None)


@card(28)
def harry_f_byrd(e: Effect) -> None:
    """Nixon removes 3 cubes of Kennedy's support in Oklahoma, Mississippi or Alabama."""
    e.remove(X, K, 3, 3, states("OK", "MS", "AL"))


@card(29)
def the_great_seal_bug(e: Effect) -> None:
    """Nixon gains 1 cube on Defense; Nixon may take Henry Cabot Lodge (#42) from the discard pile into
    their hand."""
    e.issue(X, "Defense", 1)
    e.retrieve(X, 42)


@card(30)
def johnson_jeered_in_dallas(e: Effect) -> None:
    """Kennedy loses 1 cube of support in Texas. For the rest of the turn Kennedy may not campaign in
    the South."""
    e.lose(K, 1, "TX")


@card(31)
def profiles_in_courage(e: Effect) -> None:
    """For the rest of the turn Kennedy draws once more after each failed support check."""


@card(32)
def early_returns_from_connecticut(e: Effect) -> None:
    """Held until Election Day, then: Whoever leads Connecticut makes 5 support checks in California."""
    e.checks(state_leader("CT"), 5, "CA")


@card(33)
def unpledged_electors(e: Effect) -> None:
    """Held until Election Day, then: Alabama, Louisiana and Mississippi vote for neither candidate if
    Kennedy leads them without carrying them."""
    e.unpledged_electors()


@card(34)
def lazy_shave(e: Effect) -> None:
    """In the debates Nixon must reveal his debate card before Kennedy chooses his."""


@card(35)
def harvard_brain_trust(e: Effect) -> None:
    """In the debates Kennedy adds 1 to his total on each issue."""


@card(36)
def henry_luce(e: Effect) -> None:
    """Kennedy gains an endorsement in a region of their choice."""
    e.endorse(K)


@card(37)
def lunch_counter_sit_ins(e: Effect) -> None:
    """Civil Rights moves up 1 place on the issue track; whoever leads Civil Rights adds 3 cubes of
    support in any states, at most 1 per state."""
    e.issue_up("Civil Rights", 1)
    e.support(leader("Civil Rights"), 3, 1, ANY)


@card(38)
def high_hopes(e: Effect) -> None:
    """Turn up the top 2 cards of the deck one at a time; each with Kennedy's icon or both icons is
    resolved for Kennedy, the others are discarded."""
    e.reveal_deck(K, 2)


@card(39)
def lyndon_johnson(e: Effect) -> None:
    """Kennedy adds 2 cubes of support in Texas; Kennedy adds 3 cubes of support in the South, at most 2
    per state; Kennedy's candidate card is made ready again."""
    e.support(K, 2, 2, states("TX"))
    e.support(K, 3, 2, regions("South"))
    e.restore(K)


@card(40)
def northern_blacks(e: Effect) -> None:
    """Whoever leads Civil Rights adds 5 cubes of support in Illinois, Michigan or New York, at most 2
    per state."""
    e.support(leader("Civil Rights"), 5, 2, states("IL", "MI", "NY"))


@card(41)
def pierre_salinger(e: Effect) -> None:
    """Kennedy chooses an issue; Kennedy gains 3 cubes on the chosen issue."""
    e.pick_issue(K)
    e.issue(K, CHOSEN, 3)


@card(42)
def henry_cabot_lodge(e: Effect) -> None:
    """Nixon adds 2 cubes of support in Massachusetts; Nixon gains 2 cubes on Defense; Nixon's candidate
    card is made ready again."""
    e.support(X, 2, 2, states("MA"))
    e.issue(X, "Defense", 2)
    e.restore(X)


@card(43)
def catholic_support(e: Effect) -> None:
    """Kennedy adds 7 cubes of support in any states, at most 2 per state."""
    e.support(K, 7, 2, ANY)


@card(44)
def puerto_rican_bishops(e: Effect) -> None:
    """For the rest of the turn Kennedy may not spend momentum."""


@card(45)
def compact_of_fifth_avenue(e: Effect) -> None:
    """Nixon's candidate token moves to New York free; Nixon gains 1 cube on Civil Rights; Nixon adds 2
    cubes of support in New York; Nixon places 1 cube of media support in the East."""
    e.token(X, "NY")
    e.issue(X, "Civil Rights", 1)
    e.support(X, 2, 2, states("NY"))
    e.media(X, 1, "East")


@card(46)
def prime_time_television(e: Effect) -> None:
    """The player chooses a region where they have media cubes; the player adds 5 cubes of support in
    the chosen region, at most 2 per state."""
    e.pick_region(P, "own_media")
    e.support(P, 5, 2, CHOSEN_REGION)


@card(47)
def the_cold_war(e: Effect) -> None:
    """Whoever leads Defense adds 5 cubes of support in any states, at most 1 per state."""
    e.support(leader("Defense"), 5, 1, ANY)


@card(48)
def rising_food_prices(e: Effect) -> None:
    """Economy moves up 1 place on the issue track; Nixon gains 2 cubes on Economy."""
    e.issue_up("Economy", 1)
    e.issue(X, "Economy", 2)


@card(49)
def eleanor_roosevelts_speaking_tour(e: Effect) -> None:
    """Kennedy adds 5 cubes of support in the Midwest, at most 2 per state."""
    e.support(K, 5, 2, regions("Midwest"))


@card(50)
def industrial_midwest(e: Effect) -> None:
    """Nixon adds 5 cubes of support in Illinois, Indiana, Michigan, Minnesota, Ohio or Wisconsin, at
    most 2 per state."""
    e.support(X, 5, 2, states("IL", "IN", "MI", "MN", "OH", "WI"))


@card(51)
def missile_gap(e: Effect) -> None:
    """Kennedy gains 3 cubes on Defense."""
    e.issue(K, "Defense", 3)


@card(52)
def hurricane_donna(e: Effect) -> None:
    """The player's candidate token moves to Florida free; the player gains 1 momentum; the player adds
    1 cube of support in Florida."""
    e.token(P, "FL")
    e.momentum(P, 1)
    e.support(P, 1, 1, states("FL"))


@card(53)
def campaign_headquarters(e: Effect) -> None:
    """The player may discard any number of cards and draw as many."""
    e.cycle(P)


@card(54)
def bobby_kennedy(e: Effect) -> None:
    """For the rest of the turn Kennedy's cards are worth 1 more CP (at most 5)."""


@card(55)
def hostile_press_corps(e: Effect) -> None:
    """For the rest of the turn every cube Nixon adds by campaigning needs a support check."""


@card(56)
def opposition_research(e: Effect) -> None:
    """Kennedy shows his hand to Nixon, who then spends 3 CP."""
    e.show_hand_then_cp()


@card(57)
def a_new_frontier(e: Effect) -> None:
    """Kennedy may discard any number of cards and draw as many."""
    e.cycle(K)


@card(58)
def tricky_dick(e: Effect) -> None:
    """Nixon loses 1 momentum; Nixon may take an event card from the discard pile and resolve its event."""
    e.momentum(X, -1)
    e.event_from_discards()


@card(59)
def mid_atlantic(e: Effect) -> None:
    """Kennedy adds 5 cubes of support in Delaware, Maryland, New Jersey, New York or Pennsylvania, at
    most 2 per state."""
    e.support(K, 5, 2, states("DE", "MD", "NJ", "NY", "PA"))


@card(60)
def world_series_ends(e: Effect) -> None:
    """Whoever leads the East media adds 5 cubes of support in the East, at most 2 per state."""
    e.support(media_leader("East"), 5, 2, regions("East"))


@card(61)
def fatigue_sets_in(e: Effect) -> None:
    """The opponent's candidate card is exhausted."""
    e.exhaust(OPP)


@card(62)
def trial_of_gary_powers(e: Effect) -> None:
    """Defense moves up 2 places on the issue track; whoever leads Defense gains 1 momentum."""
    e.issue_up("Defense", 2)
    e.momentum(leader("Defense"), 1)


@card(63)
def give_me_a_week(e: Effect) -> None:
    """Nixon loses 2 momentum; Nixon loses 1 cube on every issue."""
    e.momentum(X, -2)
    e.issue_each(X, -1)


@card(64)
def stump_speech(e: Effect) -> None:
    """The player gains momentum until they have as much as the opponent."""
    e.match_momentum()


@card(65)
def joe_kennedy(e: Effect) -> None:
    """For the rest of the turn Nixon may not spend momentum."""


@card(66)
def adlai_stevenson(e: Effect) -> None:
    """Kennedy adds 1 cube of support in Illinois; Kennedy may take a card from the discard pile into
    their hand."""
    e.support(K, 1, 1, states("IL"))
    e.retrieve(K, None)


@card(67)
def voter_registration_drive(e: Effect) -> None:
    """The player adds 3 cubes of support in states where nobody has support, at most 1 per state."""
    e.support(P, 3, 1, EMPTY)


@card(68)
def peace_without_surrender(e: Effect) -> None:
    """Defense moves up 1 place on the issue track; Nixon gains 1 cube on Defense."""
    e.issue_up("Defense", 1)
    e.issue(X, "Defense", 1)


@card(69)
def congressional_summer_session(e: Effect) -> None:
    """Kennedy chooses Maryland or Virginia; Kennedy's candidate token moves to the chosen state free.
    For the rest of the turn Kennedy's cards are worth 2 fewer CP (at least 1)."""
    e.pick_state(K, "md_va")
    e.token(K, CHOSEN)


@card(70)
def the_old_nixon(e: Effect) -> None:
    """Nixon loses 1 momentum; Kennedy loses 3 momentum."""
    e.momentum(X, -1)
    e.momentum(K, -3)


@card(71)
def heartland_of_america(e: Effect) -> None:
    """Nixon adds 7 cubes of support in states worth at most 10 electoral votes in the West or Midwest,
    at most 1 per state."""
    e.support(X, 7, 1, worth(0, 10, "West", "Midwest"))


@card(72)
def southern_revolt(e: Effect) -> None:
    """If Kennedy leads Civil Rights: Nixon adds 5 cubes of support in the South, at most 2 per state."""
    if e.if_leads(K, "Civil Rights"):
        e.support(X, 5, 2, regions("South"))


@card(73)
def norman_vincent_peale(e: Effect) -> None:
    """Nixon removes 5 cubes of Kennedy's support in any states, at most 1 per state."""
    e.remove(X, K, 5, 1, ANY)


@card(74)
def eisenhowers_silence(e: Effect) -> None:
    """For the rest of the turn Nixon may not campaign in states where Kennedy has support."""


@card(75)
def republican_tv_spots(e: Effect) -> None:
    """Nixon's candidate token moves to New York free; Nixon places 3 cubes of media support in regions
    of their choice."""
    e.token(X, "NY")
    e.media(X, 3, None)


@card(76)
def nixons_pledge(e: Effect) -> None:
    """For the rest of the turn Kennedy gains 1 momentum whenever Nixon plays a card other than to
    campaign."""


@card(77)
def suburban_voters(e: Effect) -> None:
    """Kennedy adds 5 cubes of support in states worth at least 20 electoral votes, at most 2 per state."""
    e.support(K, 5, 2, worth(20, 99))


@card(78)
def stock_market_in_decline(e: Effect) -> None:
    """Economy moves up 2 places on the issue track; whoever leads Economy adds 2 cubes of support in
    New York."""
    e.issue_up("Economy", 2)
    e.support(leader("Economy"), 2, 2, states("NY"))


@card(79)
def advance_men(e: Effect) -> None:
    """For the rest of the turn the player travels free and campaigns without support checks."""
    e.binds(P)


@card(80)
def herblock(e: Effect) -> None:
    """Kennedy removes 2 cubes of the opponent's media support."""
    e.media_remove(K, 2)


@card(81)
def kennedys_peace_corps(e: Effect) -> None:
    """For the rest of the turn Kennedy may preempt events without paying momentum."""


@card(82)
def fidel_castro(e: Effect) -> None:
    """Whoever leads Defense gains 1 momentum; whoever leads Defense adds 1 cube of support in Florida."""
    e.momentum(leader("Defense"), 1)
    e.support(leader("Defense"), 1, 1, states("FL"))


@card(83)
def whistlestop(e: Effect) -> None:
    """The player spends 7 CP on campaigning, at most one cube per state."""
    e.campaign_one_per_state()


@card(84)
def quemoy_and_matsu(e: Effect) -> None:
    """Whoever leads Defense gains 1 momentum; whoever leads Defense adds 3 cubes of support in any
    states, at most 1 per state."""
    e.momentum(leader("Defense"), 1)
    e.support(leader("Defense"), 3, 1, ANY)


@card(85)
def jackie_kennedy(e: Effect) -> None:
    """For the rest of the turn Nixon pays 1 momentum to play each event from his hand."""


@card(86)
def herb_klein(e: Effect) -> None:
    """Nixon adds 3 cubes on issues, one at a time, spread as they choose."""
    e.issue_split(X, 3, "gain")


@card(87)
def stevenson_loyalists(e: Effect) -> None:
    """For the rest of the turn Kennedy may not campaign in the West or the Midwest."""


@card(88)
def stature_gap(e: Effect) -> None:
    """For the rest of the turn Kennedy's cards are worth 2 fewer CP when positioning on issues."""


@card(89)
def the_new_nixon(e: Effect) -> None:
    """Nixon gains 1 momentum."""
    e.momentum(X, 1)


@card(90)
def recount(e: Effect) -> None:
    """Held until Election Day, then: Nixon chooses any state; Nixon makes 3 support checks in the
    chosen state."""
    e.pick_state(X, "all")
    e.checks(X, 3, CHOSEN)


@card(91)
def political_capital(e: Effect) -> None:
    """Nixon draws 2 cards."""
    e.draw(X, 2)


@card(92)
def give_em_hell_harry(e: Effect) -> None:
    """If Kennedy leads at least 2 issues: Kennedy loses 1 momentum, then Kennedy removes 2 cubes on
    issues, one at a time, spread as they choose."""
    if e.if_leads_issues(K, 2):
        e.momentum(K, -1)
        e.issue_split(K, 2, "lose")


@card(93)
def experience_counts(e: Effect) -> None:
    """Kennedy loses 1 cube on every issue; Nixon gains 1 momentum."""
    e.issue_each(K, -1)
    e.momentum(X, 1)


@card(94)
def a_low_blow(e: Effect) -> None:
    """If Nixon leads at least 2 issues: Kennedy gains 1 momentum, then Kennedy may discard any number
    of cards and draw as many."""
    if e.if_leads_issues(X, 2):
        e.momentum(K, 1)
        e.cycle(K)


@card(95)
def a_time_for_greatness(e: Effect) -> None:
    """Nixon loses 1 cube on every issue; Kennedy adds 3 cubes of support in any states, at most 1 per
    state."""
    e.issue_each(X, -1)
    e.support(K, 3, 1, ANY)


@card(96)
def medal_count(e: Effect) -> None:
    """Whoever leads Civil Rights loses a cube there, and whoever leads Economy loses a cube there; a
    candidate leading both also loses 1 momentum."""
    e.issue_leaders_lose("Civil Rights", "Economy")


@card(97)
def cassius_clay_wins_gold(e: Effect) -> None:
    """Whoever leads Defense loses a cube there, and whoever leads Economy loses a cube there; a
    candidate leading both also loses 1 momentum."""
    e.issue_leaders_lose("Defense", "Economy")
