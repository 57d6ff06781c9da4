"""Facts of 1960: The Making of the President (GMT 2017 edition), transcribed once.

Names, numbers, icons, regions and start cubes only; no card or rule text. The project never
reads the research files at run time: this module is the data.
"""

from __future__ import annotations

from typing import NamedTuple


class StateInfo(NamedTuple):
    abbr: str
    name: str
    region: str
    ev: int
    kennedy: int  # starting support cubes
    nixon: int
    lean: str  # who takes the state if it is empty on Election Day and no endorsement decides


# abbr, name, region, electoral votes, Kennedy start, Nixon start, lean
STATES: dict[str, StateInfo] = {s.abbr: s for s in (
    StateInfo('AK', 'Alaska', 'West', 3, 0, 0, 'nixon'),
    StateInfo('AL', 'Alabama', 'South', 11, 1, 0, 'kennedy'),
    StateInfo('AR', 'Arkansas', 'South', 8, 1, 0, 'kennedy'),
    StateInfo('AZ', 'Arizona', 'West', 4, 0, 1, 'nixon'),
    StateInfo('CA', 'California', 'West', 32, 0, 0, 'nixon'),
    StateInfo('CO', 'Colorado', 'West', 6, 0, 1, 'nixon'),
    StateInfo('CT', 'Connecticut', 'East', 8, 0, 0, 'kennedy'),
    StateInfo('DE', 'Delaware', 'East', 3, 0, 0, 'kennedy'),
    StateInfo('FL', 'Florida', 'South', 10, 0, 0, 'nixon'),
    StateInfo('GA', 'Georgia', 'South', 12, 2, 0, 'kennedy'),
    StateInfo('HI', 'Hawaii', 'West', 3, 0, 0, 'kennedy'),
    StateInfo('IA', 'Iowa', 'Midwest', 10, 0, 1, 'nixon'),
    StateInfo('ID', 'Idaho', 'West', 4, 0, 0, 'nixon'),
    StateInfo('IL', 'Illinois', 'Midwest', 27, 0, 0, 'kennedy'),
    StateInfo('IN', 'Indiana', 'Midwest', 13, 0, 1, 'nixon'),
    StateInfo('KS', 'Kansas', 'West', 8, 0, 2, 'nixon'),
    StateInfo('KY', 'Kentucky', 'Midwest', 10, 0, 0, 'nixon'),
    StateInfo('LA', 'Louisiana', 'South', 10, 2, 0, 'kennedy'),
    StateInfo('MA', 'Massachusetts', 'East', 16, 2, 0, 'kennedy'),
    StateInfo('MD', 'Maryland', 'East', 9, 0, 0, 'kennedy'),
    StateInfo('ME', 'Maine', 'East', 5, 0, 1, 'nixon'),
    StateInfo('MI', 'Michigan', 'Midwest', 20, 0, 0, 'kennedy'),
    StateInfo('MN', 'Minnesota', 'Midwest', 11, 0, 0, 'kennedy'),
    StateInfo('MO', 'Missouri', 'Midwest', 13, 1, 0, 'kennedy'),
    StateInfo('MS', 'Mississippi', 'South', 8, 2, 0, 'kennedy'),
    StateInfo('MT', 'Montana', 'West', 4, 0, 0, 'nixon'),
    StateInfo('NC', 'North Carolina', 'South', 14, 1, 0, 'kennedy'),
    StateInfo('ND', 'North Dakota', 'West', 4, 0, 1, 'nixon'),
    StateInfo('NE', 'Nebraska', 'West', 6, 0, 2, 'nixon'),
    StateInfo('NH', 'New Hampshire', 'East', 4, 0, 0, 'nixon'),
    StateInfo('NJ', 'New Jersey', 'East', 16, 0, 0, 'kennedy'),
    StateInfo('NM', 'New Mexico', 'West', 4, 0, 0, 'kennedy'),
    StateInfo('NV', 'Nevada', 'West', 3, 0, 0, 'kennedy'),
    StateInfo('NY', 'New York', 'East', 45, 0, 0, 'kennedy'),
    StateInfo('OH', 'Ohio', 'Midwest', 25, 0, 1, 'nixon'),
    StateInfo('OK', 'Oklahoma', 'West', 8, 0, 1, 'nixon'),
    StateInfo('OR', 'Oregon', 'West', 6, 0, 0, 'nixon'),
    StateInfo('PA', 'Pennsylvania', 'East', 32, 0, 0, 'kennedy'),
    StateInfo('RI', 'Rhode Island', 'East', 4, 2, 0, 'kennedy'),
    StateInfo('SC', 'South Carolina', 'South', 8, 1, 0, 'kennedy'),
    StateInfo('SD', 'South Dakota', 'West', 4, 0, 1, 'nixon'),
    StateInfo('TN', 'Tennessee', 'South', 11, 0, 0, 'nixon'),
    StateInfo('TX', 'Texas', 'South', 24, 0, 0, 'kennedy'),
    StateInfo('UT', 'Utah', 'West', 4, 0, 1, 'nixon'),
    StateInfo('VA', 'Virginia', 'South', 12, 0, 0, 'nixon'),
    StateInfo('VT', 'Vermont', 'East', 3, 0, 1, 'nixon'),
    StateInfo('WA', 'Washington', 'West', 9, 0, 0, 'nixon'),
    StateInfo('WI', 'Wisconsin', 'Midwest', 12, 0, 0, 'nixon'),
    StateInfo('WV', 'West Virginia', 'East', 8, 0, 0, 'kennedy'),
    StateInfo('WY', 'Wyoming', 'West', 3, 0, 1, 'nixon'),
)}


class CardInfo(NamedTuple):
    id: int
    name: str
    cp: int
    icon: str  # "kennedy", "nixon" or "both"
    issue: str | None  # debate icon; None for the Gathering Momentum cards
    state: str | None  # the Election Day campaign-strategy state
    persistent: str  # none, rest_of_turn, debate, election_day, prevention

    @property
    def rest(self) -> int:
        return 4 - self.cp  # rest cubes are coupled to CP on every card


# id, name, CP, candidate icon, debate issue, strategy state, persistence
CARDS: dict[int, CardInfo] = {c.id: c for c in (
    CardInfo(1, 'Greater Houston Ministerial Association', 4, 'kennedy', 'Defense', 'NY', 'prevention'),
    CardInfo(2, "Nixon's Knee", 4, 'kennedy', 'Economy', 'TX', 'rest_of_turn'),
    CardInfo(3, 'Gallup Poll', 3, 'both', 'Civil Rights', 'MO', 'none'),
    CardInfo(4, 'Citizens for Nixon-Lodge', 2, 'nixon', 'Civil Rights', 'AZ', 'rest_of_turn'),
    CardInfo(5, 'Volunteers', 2, 'both', 'Defense', 'OR', 'none'),
    CardInfo(6, 'New England', 3, 'kennedy', 'Defense', 'LA', 'none'),
    CardInfo(7, 'Late Returns from Cook County', 2, 'kennedy', 'Economy', 'SC', 'election_day'),
    CardInfo(8, 'Soviet Economic Growth', 2, 'both', 'Economy', 'NH', 'none'),
    CardInfo(9, 'Baptist Ministers', 3, 'nixon', 'Civil Rights', 'MA', 'none'),
    CardInfo(10, 'Swing State', 3, 'both', 'Civil Rights', 'VA', 'none'),
    CardInfo(11, 'Sputnik V', 3, 'both', 'Civil Rights', 'MA', 'none'),
    CardInfo(12, 'Southern Strategy', 3, 'nixon', 'Defense', 'KY', 'none'),
    CardInfo(13, 'Nikita Kruschev', 3, 'both', 'Economy', 'FL', 'none'),
    CardInfo(14, 'Gathering Momentum in the South', 4, 'both', None, None, 'none'),
    CardInfo(15, 'Gathering Momentum in the East', 4, 'both', None, None, 'none'),
    CardInfo(16, 'Gathering Momentum in the Midwest', 4, 'both', None, None, 'none'),
    CardInfo(17, 'Gathering Momentum in the West', 4, 'both', None, None, 'none'),
    CardInfo(18, 'Dwight D. Eisenhower', 4, 'nixon', 'Civil Rights', 'PA', 'prevention'),
    CardInfo(19, 'Old South', 4, 'both', 'Defense', 'NY', 'rest_of_turn'),
    CardInfo(20, 'Nixon Egged in Michigan', 2, 'kennedy', 'Defense', 'HI', 'rest_of_turn'),
    CardInfo(21, 'Fifty Stars', 2, 'both', 'Defense', 'AK', 'none'),
    CardInfo(22, 'Gaffe', 4, 'both', 'Economy', 'TX', 'none'),
    CardInfo(23, 'Martin Luther King Arrested', 4, 'both', 'Civil Rights', 'CA', 'none'),
    CardInfo(24, 'East Harlem Pledge', 3, 'kennedy', 'Economy', 'MI', 'none'),
    CardInfo(25, '1960 Civil Rights Act', 2, 'nixon', 'Civil Rights', 'ND', 'none'),
    CardInfo(26, 'Ken-Air', 2, 'kennedy', 'Civil Rights', 'MD', 'rest_of_turn'),
    CardInfo(27, 'Nelson Rockefeller', 3, 'nixon', 'Defense', 'KY', 'none'),
    CardInfo(28, 'Harry F. Byrd', 2, 'nixon', 'Civil Rights', 'ME', 'none'),
    CardInfo(29, 'The Great Seal Bug', 3, 'nixon', 'Economy', 'WI', 'none'),
    CardInfo(30, 'Johnson Jeered in Dallas', 2, 'nixon', 'Economy', 'MO', 'rest_of_turn'),
    CardInfo(31, 'Profiles in Courage', 2, 'kennedy', 'Civil Rights', 'DE', 'rest_of_turn'),
    CardInfo(32, 'Early Returns From Connecticut', 2, 'both', 'Civil Rights', 'WY', 'election_day'),
    CardInfo(33, 'Unpledged Electors', 4, 'nixon', 'Economy', 'CA', 'election_day'),
    CardInfo(34, 'Lazy Shave', 3, 'kennedy', 'Defense', 'NC', 'debate'),
    CardInfo(35, 'Harvard Brain Trust', 4, 'kennedy', 'Civil Rights', 'PA', 'debate'),
    CardInfo(36, 'Henry Luce', 2, 'kennedy', 'Defense', 'WV', 'none'),
    CardInfo(37, 'Lunch Counter Sit-Ins', 3, 'both', 'Defense', 'NJ', 'none'),
    CardInfo(38, 'High Hopes', 2, 'kennedy', 'Civil Rights', 'AR', 'none'),
    CardInfo(39, 'Lyndon Johnson', 4, 'kennedy', 'Civil Rights', 'CA', 'none'),
    CardInfo(40, 'Northern Blacks', 3, 'both', 'Defense', 'MN', 'none'),
    CardInfo(41, 'Pierre Salinger', 3, 'kennedy', 'Civil Rights', 'AL', 'none'),
    CardInfo(42, 'Henry Cabot Lodge', 4, 'nixon', 'Economy', 'NY', 'none'),
    CardInfo(43, 'Catholic Support', 4, 'kennedy', 'Economy', 'NY', 'none'),
    CardInfo(44, 'Puerto Rican Bishops', 3, 'nixon', 'Civil Rights', 'NE', 'rest_of_turn'),
    CardInfo(45, 'Compact of Fifth Avenue', 3, 'nixon', 'Economy', 'MI', 'none'),
    CardInfo(46, 'Prime-Time Television', 3, 'both', 'Civil Rights', 'AL', 'none'),
    CardInfo(47, 'The Cold War', 3, 'both', 'Defense', 'MI', 'none'),
    CardInfo(48, 'Rising Food Prices', 3, 'nixon', 'Civil Rights', 'IA', 'none'),
    CardInfo(49, "Eleanor Roosevelt's Speaking Tour", 3, 'kennedy', 'Economy', 'FL', 'none'),
    CardInfo(50, 'Industrial Midwest', 3, 'nixon', 'Defense', 'IN', 'none'),
    CardInfo(51, 'Missile Gap', 3, 'kennedy', 'Economy', 'GA', 'none'),
    CardInfo(52, 'Hurricane Donna', 2, 'both', 'Civil Rights', 'MT', 'none'),
    CardInfo(53, 'Campaign Headquarters', 2, 'both', 'Defense', 'NM', 'none'),
    CardInfo(54, 'Bobby Kennedy', 2, 'kennedy', 'Economy', 'CT', 'rest_of_turn'),
    CardInfo(55, 'Hostile Press Corps', 4, 'kennedy', 'Defense', 'PA', 'rest_of_turn'),
    CardInfo(56, 'Opposition Research', 4, 'nixon', 'Defense', 'OH', 'none'),
    CardInfo(57, 'A New Frontier', 2, 'kennedy', 'Defense', 'RI', 'none'),
    CardInfo(58, 'Tricky Dick', 4, 'nixon', 'Defense', 'IL', 'none'),
    CardInfo(59, 'Mid-Atlantic', 3, 'kennedy', 'Civil Rights', 'TN', 'none'),
    CardInfo(60, 'World Series Ends', 3, 'both', 'Economy', 'UT', 'none'),
    CardInfo(61, 'Fatigue Sets In', 4, 'both', 'Civil Rights', 'OH', 'none'),
    CardInfo(62, 'Trial of Gary Powers', 3, 'both', 'Economy', 'WI', 'none'),
    CardInfo(63, 'Give Me A Week', 4, 'kennedy', 'Economy', 'OH', 'none'),
    CardInfo(64, 'Stump Speech', 4, 'both', 'Economy', 'OH', 'none'),
    CardInfo(65, 'Joe Kennedy', 3, 'kennedy', 'Defense', 'GA', 'rest_of_turn'),
    CardInfo(66, 'Adlai Stevenson', 3, 'kennedy', 'Civil Rights', 'MA', 'none'),
    CardInfo(67, 'Voter Registration Drive', 2, 'both', 'Civil Rights', 'WA', 'none'),
    CardInfo(68, 'Peace Without Surrender', 2, 'nixon', 'Defense', 'CO', 'none'),
    CardInfo(69, 'Congressional Summer Session', 4, 'nixon', 'Defense', 'PA', 'rest_of_turn'),
    CardInfo(70, 'The Old Nixon', 4, 'nixon', 'Economy', 'IL', 'none'),
    CardInfo(71, 'Heartland of America', 3, 'nixon', 'Defense', 'NJ', 'none'),
    CardInfo(72, 'Southern Revolt', 3, 'nixon', 'Economy', 'IN', 'none'),
    CardInfo(73, 'Norman Vincent Peale', 3, 'nixon', 'Economy', 'VA', 'none'),
    CardInfo(74, "Eisenhower's Silence", 4, 'kennedy', 'Civil Rights', 'IL', 'rest_of_turn'),
    CardInfo(75, 'Republican TV Spots', 4, 'nixon', 'Civil Rights', 'CA', 'none'),
    CardInfo(76, "Nixon's Pledge", 4, 'kennedy', 'Defense', 'IL', 'rest_of_turn'),
    CardInfo(77, 'Suburban Voters', 3, 'kennedy', 'Economy', 'MN', 'none'),
    CardInfo(78, 'Stock Market in Decline', 3, 'both', 'Defense', 'TN', 'none'),
    CardInfo(79, 'Advance Men', 2, 'both', 'Economy', 'NV', 'rest_of_turn'),
    CardInfo(80, 'Herblock', 2, 'kennedy', 'Economy', 'MS', 'none'),
    CardInfo(81, "Kennedy's Peace Corps", 3, 'kennedy', 'Civil Rights', 'LA', 'rest_of_turn'),
    CardInfo(82, 'Fidel Castro', 2, 'both', 'Economy', 'ID', 'none'),
    CardInfo(83, 'Whistlestop', 4, 'both', 'Defense', 'TX', 'none'),
    CardInfo(84, 'Quemoy and Matsu', 3, 'both', 'Economy', 'NC', 'none'),
    CardInfo(85, 'Jackie Kennedy', 3, 'kennedy', 'Defense', 'NJ', 'rest_of_turn'),
    CardInfo(86, 'Herb Klein', 3, 'nixon', 'Civil Rights', 'IA', 'none'),
    CardInfo(87, 'Stevenson Loyalists', 2, 'nixon', 'Defense', 'SD', 'rest_of_turn'),
    CardInfo(88, 'Stature Gap', 2, 'nixon', 'Economy', 'VT', 'rest_of_turn'),
    CardInfo(89, 'The New Nixon', 2, 'nixon', 'Civil Rights', 'KS', 'none'),
    CardInfo(90, 'Recount', 4, 'nixon', 'Civil Rights', 'TX', 'election_day'),
    CardInfo(91, 'Political Capital', 2, 'nixon', 'Defense', 'OK', 'none'),
    CardInfo(92, "Give 'Em Hell Harry", 3, 'nixon', 'Economy', 'NY', 'none'),
    CardInfo(93, 'Experience Counts', 4, 'nixon', 'Defense', 'CA', 'none'),
    CardInfo(94, 'A Low Blow', 3, 'kennedy', 'Economy', 'IL', 'none'),
    CardInfo(95, 'A Time for Greatness', 4, 'kennedy', 'Civil Rights', 'TX', 'none'),
    CardInfo(96, 'Medal Count', 2, 'both', 'Defense', 'PA', 'none'),
    CardInfo(97, 'Cassius Clay Wins Gold', 2, 'both', 'Civil Rights', 'OH', 'none'),
)}

# Values the two research sources disagree on; the table above uses the first reading.
DISPUTED = {
    20: "CP 2 (other reading 4)",
    25: "CP 2 (other reading 4)",
    67: "CP 2 (other reading 4)",
    34: "issue Defense (other reading Economy)",
    89: "issue Civil Rights (other reading Economy)",
}

SEATS = ("kennedy", "nixon")
REGIONS = ("West", "Midwest", "East", "South")
ISSUES = ("Economy", "Civil Rights", "Defense")
START_TRACK = ["Defense", "Economy", "Civil Rights"]  # top (1st) first; one source only
HOME = {"kennedy": "MA", "nixon": "CA"}
CUBES_PER_COLOUR = 85
BAG_SEED = 12  # GMT edition: 12 of each colour at setup and on a reseed
START_MOMENTUM = 2
CARRY = 4
TOTAL_EV = 537
GATHERING_MOMENTUM = {14: "South", 15: "East", 16: "Midwest", 17: "West"}
VICE_PRESIDENTS = {"kennedy": 39, "nixon": 42}
CANDIDATE_CP = 5
ACTIVITY_PHASES = 5
LAST_TURN = 9
DEBATE_TURN = 6
DEBATE_REWARDS = (2, 3, 4)

# Endorsement deck: 3 per region and 4 "any region" (the drawer picks), 16 cards.
ENDORSEMENTS: dict[str, str] = {
    **{f"E{i + 1}": REGIONS[i // 3] for i in range(12)},
    **{f"E{i}": "any" for i in range(13, 17)},
}

# Travel areas: Alaska and Hawaii are their own areas reached only through the West.
TRAVEL_LINKS = (
    ("West", "Midwest"), ("West", "South"), ("Midwest", "East"), ("Midwest", "South"),
    ("East", "South"), ("AK", "West"), ("HI", "West"),
)


def area(abbr: str) -> str:
    """The travel area of a state (its region, except Alaska and Hawaii)."""
    return abbr if abbr in ("AK", "HI") else STATES[abbr].region


def _distances() -> dict[str, dict[str, int]]:
    areas = sorted({a for link in TRAVEL_LINKS for a in link})
    nbrs: dict[str, set[str]] = {a: set() for a in areas}
    for a, b in TRAVEL_LINKS:
        nbrs[a].add(b)
        nbrs[b].add(a)
    table: dict[str, dict[str, int]] = {}
    for start in areas:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for a in frontier:
                for b in sorted(nbrs[a]):
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        table[start] = dist
    return table


TRAVEL = _distances()


def travel_cost(src: str, dst: str) -> int:
    """Region borders crossed moving a token from state src to state dst."""
    return TRAVEL[area(src)][area(dst)]


def by_name() -> dict[str, str]:
    """Lower-case state names and abbreviations -> abbreviation (for the order grammar)."""
    names = {}
    for s in STATES.values():
        names[s.name.lower()] = s.abbr
        names[s.abbr.lower()] = s.abbr
    return names
